// Drive a built copy of the peer engine (bipark/gostop-ts, compiled to JavaScript) through our logged hands,
// for bench/peer_bench.py. Our own code: it holds none of the peer's, only calls its public classes.
//
//   node bench/peer/runner.mjs <peer's built folder, with play.js and cards.js> <hands.json> [--serve]
//
// The hands are our engine's logs (players, deal with layout / hands / stock top first, moves) with what our
// replay ended with (`expect`: each player's captured card ids, the winner, the winner's score and the points
// paid). Each hand is dealt exactly as logged (the peer's own deck and shuffle are not used: its state is set from
// the deal), and every move is turned into the peer's calls: the card played found in the hand, the capture our
// log chose given as the floor choice, a flip's choice answered as logged, shakes, bombs, flips and go/stop called
// as ours did. A hand where the peer's rules part from ours is reported with the move and the reason.
//
// Without --serve: prints the check as JSON. With --serve: prints the check as one JSON line, then answers lines
// on stdin: "round <passes>" times <passes> passes over the hands that replayed identically (the lowest pass kept,
// microseconds a hand, wall and CPU); "quit" ends.

import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { join, resolve } from 'node:path';

const [peerDir, handsPath, ...flags] = process.argv.slice(2);
if (!peerDir || !handsPath) {
  console.error('usage: node runner.mjs <peer built folder> <hands.json> [--serve]');
  process.exit(2);
}
const load = (name) => import(pathToFileURL(join(resolve(peerDir), name)).href);
const { HwatuCatalog, HwatuKind } = await load('cards.js');
const { GameState, TurnEngine, GamePhase, RuleSet } = await load('play.js');
const { Scorer } = await load('score.js');

// Our card ids to the peer's asset ids: the months' names, and the face of each card.
const MONTHS = {
  jan: 'january', feb: 'february', mar: 'march', apr: 'april', may: 'may', jun: 'june',
  jul: 'july', aug: 'august', sep: 'september', oct: 'october', nov: 'november', dec: 'december',
};
const FACES = { bright: 'hikari', animal: 'tane', ribbon: 'tanzaku', junk: 'kasu' };
const SPECIAL = {
  'nov-double': 'november_kasu_3', 'dec-double': 'december_kasu',
  'bonus-2a': 'bonus_ssangpi_1', 'bonus-2b': 'bonus_ssangpi_2', 'bonus-3': 'bonus_sampi',
};
function assetOf(id) {
  if (SPECIAL[id]) return SPECIAL[id];
  const [month, face, n] = id.split('-');
  return [MONTHS[month], FACES[face], n].filter(Boolean).join('_');
}
const byAsset = new Map([...HwatuCatalog.standard(), ...HwatuCatalog.bonus()].map((c) => [c.assetId, c]));
const CARD = new Map(); // our id -> the peer's catalogue card (copied for each hand: the peer mutates a few fields)
for (const month of Object.keys(MONTHS)) {
  for (const face of ['bright', 'animal', 'ribbon', 'junk-1', 'junk-2', 'junk-3', 'double']) {
    const id = `${month}-${face}`;
    const card = byAsset.get(assetOf(id));
    if (card) CARD.set(id, card);
  }
}
for (const id of ['bonus-2a', 'bonus-2b', 'bonus-3']) CARD.set(id, byAsset.get(assetOf(id)));
const card = (id) => ({ ...CARD.get(id) });

class Diverged extends Error {}
const diverge = (at, why) => { throw new Diverged(`move ${at}: ${why}`); };

function handIndex(player, id, at) {
  const asset = CARD.get(id).assetId;
  const i = player.hand.findIndex((c) => c.assetId === asset);
  if (i < 0) diverge(at, `${id} is not in the peer's hand`);
  return i;
}

// The card the peer will flip next (the stock's top past any bonus card, which it takes on the way).
function nextFlip(state) {
  for (let i = state.stock.length - 1; i >= 0; i--) {
    if (state.stock[i].kind !== HwatuKind.Bonus) return state.stock[i];
  }
  return null;
}

// Replay one hand on the peer; with `check`, also compare each flip with the log's on the way.
function replay(hand, check) {
  const names = hand.players;
  const state = new GameState(names);
  for (let p = 0; p < names.length; p++) state.players[p].hand = hand.deal.hands[names[p]].map(card);
  // Our layout lists a bonus card's replacement after the dealt cards; the peer draws the replacement itself
  // (applyFloorBonus), so it goes back on the stock's top for the peer to draw.
  const dealt = names.length === 2 ? 8 : 6;
  state.floor = hand.deal.layout.slice(0, dealt).map(card);
  state.stock = [...hand.deal.layout.slice(dealt)].reverse().concat(hand.deal.stock).map(card).reverse();
  const engine = new TurnEngine(state, RuleSet.default());
  engine.flipChoiceEnabled = true; // so that a flip matching two unlike floor cards takes the one our log took
  if (!engine.applyHandChongtong() && !engine.applyFloorChongtong()) {
    engine.applyFloorBbeok();
    engine.applyFloorBonus();
  }
  const moves = hand.moves;
  for (let at = 0; at < moves.length; at++) {
    const m = moves[at];
    if (state.phase === GamePhase.Finished) diverge(at, 'the peer ended the hand before ours');
    if (state.current !== names.indexOf(m.player)) {
      if (state.phase === GamePhase.AwaitingGoStop) diverge(at, 'the peer asks go/stop (its score reached 7), ours does not');
      if (m.call !== undefined) diverge(at, 'ours asks go/stop (its score reached 7), the peer does not');
      diverge(at, 'the peer gives the turn to the other player');
    }
    if (m.call !== undefined) {
      if (state.phase !== GamePhase.AwaitingGoStop) diverge(at, `ours calls ${m.call}, the peer has no go/stop`);
      if (m.call === 'go') engine.declareGo();
      else if (m.call === 'stop') engine.declareStop();
      else diverge(at, `call ${m.call} unknown to the peer`);
      continue;
    }
    if (state.phase === GamePhase.AwaitingGoStop) diverge(at, 'the peer asks go/stop, ours plays on');
    if (m.shodang !== undefined || m.chongtong !== undefined || m.sep_animal_as !== undefined) {
      diverge(at, 'a declaration the peer does not have');
    }
    const player = state.players[state.current];
    if (m.bonus !== undefined) {
      for (const id of [].concat(m.bonus)) engine.playHandCard(handIndex(player, id, at));
    }
    if (check && m.draw !== undefined) {
      const top = nextFlip(state);
      if (!top || top.assetId !== CARD.get(m.draw).assetId) diverge(at, `the peer would flip another card than ${m.draw}`);
    }
    if (m.flip) {
      if (!engine.canFlipOnly()) diverge(at, 'ours flips only, the peer owes no flip');
      engine.flipOnly();
    } else if (m.bomb) {
      const month = CARD.get(m.bomb[0]).month;
      if (m.bomb.length !== 3 || !engine.canBomb(month)) diverge(at, 'ours bombs, the peer cannot');
      engine.playBomb(month);
    } else if (m.play !== undefined) {
      const i = handIndex(player, m.play, at);
      const month = player.hand[i].month;
      if (m.shake) {
        if (!engine.canShake(month)) diverge(at, 'ours shakes, the peer cannot');
        engine.declareShake(month);
      }
      let choice = 0;
      if (m.capture !== undefined) {
        const asset = CARD.get(m.capture).assetId;
        const matches = state.floor.filter((c) => c.month === month);
        choice = matches.findIndex((c) => c.assetId === asset);
        if (choice < 0) diverge(at, `${m.capture} is not on the peer's floor`);
      }
      engine.playHandCard(i, choice);
    } else {
      diverge(at, 'a move the runner does not know');
    }
    if (state.phase === GamePhase.AwaitingFlipChoice) {
      let ordinal = -1;
      if (m.draw_capture !== undefined) {
        const asset = CARD.get(m.draw_capture).assetId;
        ordinal = engine.flipChoiceOptions().findIndex((c) => c.assetId === asset);
      }
      if (ordinal < 0) diverge(at, 'the peer asks which card the flip takes, ours did not choose');
      engine.resolveFlipChoice(ordinal);
    }
  }
  // Ours stops by itself when a hand's last turn scores; the peer asks, and is answered as ours did.
  if (state.phase === GamePhase.AwaitingGoStop && names[state.current] === hand.expect.winner) engine.declareStop();
  return engine;
}

// Junk cards of one value are the same card to the score, whatever their month: which one a flip or a steal takes
// is the peer's own pick (the lowest-valued first it finds) where ours takes another.
const key = (c) => (c.kind === HwatuKind.Junk ? `junk${c.junkValue}` : c.assetId);
const keys = (cards) => cards.map(key).sort().join(',');
const idKeys = (ids) => keys(ids.map((id) => CARD.get(id)));

function compare(hand, engine) {
  const { state } = engine;
  const want = hand.expect;
  if (state.phase !== GamePhase.Finished) return 'the peer has not ended the hand';
  const winner = state.winner < 0 ? null : hand.players[state.winner];
  if (winner !== want.winner) return `winner ${winner} against ours ${want.winner}`;
  const all = (lists) => keys([].concat(...lists));
  const stolen = all(state.players.map((p) => p.captured)) === all(hand.players.map((n) => want.captured[n].map((id) => CARD.get(id))));
  for (let p = 0; p < hand.players.length; p++) {
    const have = keys(state.players[p].captured);
    const ours = idKeys(want.captured[hand.players[p]]);
    if (have !== ours) {
      if (process.env.PEER_DEBUG) console.error(hand.seed, hand.players[p], 'peer', have, '\nours', ours);
      if (stolen) return 'the same cards captured, but junk passed between the players by other steals';
      return `${hand.players[p]}'s captured cards differ`;
    }
  }
  return null;
}

const hands = JSON.parse(readFileSync(handsPath, 'utf8'));
const report = { hands: hands.length, identical: [], same_score: 0, same_points: 0, diverged: {} };
for (const hand of hands) {
  let why;
  let engine = null;
  try {
    engine = replay(hand, true);
    why = compare(hand, engine);
  } catch (e) {
    if (!(e instanceof Diverged) && !(e && e.name === 'HwatuError')) throw e;
    why = e.message;
  }
  if (why) {
    report.diverged[hand.seed] = why;
    continue;
  }
  report.identical.push(hand.seed);
  const w = engine.state.winner;
  if (w >= 0 && Scorer.evaluate(engine.state.players[w].captured, engine.rules.score).total === hand.expect.score) {
    report.same_score++;
  }
  if (w >= 0 && engine.finalSettlement()[w].net === hand.expect.points) report.same_points++;
}

if (!flags.includes('--serve')) {
  console.log(JSON.stringify(report, null, 1));
  process.exit(0);
}
console.log(JSON.stringify(report));
const timed = hands.filter((h) => report.identical.includes(h.seed));

function pass() {
  const wall = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  for (const hand of timed) replay(hand, false).finalSettlement();
  const used = process.cpuUsage(cpu);
  return [Number(process.hrtime.bigint() - wall) / 1e3, used.user + used.system];
}

for await (const line of createInterface({ input: process.stdin })) {
  const [word, n] = line.trim().split(/\s+/);
  if (word === 'quit') break;
  if (word !== 'round') continue;
  let wall = Infinity;
  let cpu = Infinity;
  for (let i = 0; i < Number(n || 1); i++) {
    const [w, c] = pass();
    wall = Math.min(wall, w);
    cpu = Math.min(cpu, c);
  }
  console.log(JSON.stringify({ wall_us: wall / timed.length, cpu_us: cpu / timed.length }));
}
process.exit(0); // stdin may still be open: leave without waiting for it
