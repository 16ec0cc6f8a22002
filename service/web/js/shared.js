// What one view offers another without importing it, so the views' modules import no cycle (settle and the
// ledger, the live game and the check each call the other): a view puts its offer here when its module
// loads, and the other calls it when a person asks. main.js loads every view before the first draw.
//   offers.settle: {startFromLedger(ctx), tableNow()}    offers.live: {hasGame(), logOf()}
export const offers = {};
