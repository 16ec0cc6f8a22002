"""Perft counts (engine/perft.py, tests/data/perft-<preset>.json): the engine's move generation pinned in numbers.

For each preset, seeded hands with the whole deal known: the number of legal moves at every ply of the hand as
it was played, and the number of lines of play three or four moves deep from three of its positions. At every
ply, ``legal_moves``, ``is_legal`` and ``apply`` must agree: each legal move applies; plausible moves that are
not legal (another player's turn, a card not in hand, a wrong or missing capture choice, a wrong draw, a call
when none is due, a flip turn not held ...) are refused by both, and a refused move leaves the state exactly as
it was. A change to the moves the engine generates shows here as a count; if the change is right, regenerate
the files with ``make perft`` and read their diff.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import CARDS, CardSet, Expect, GameState, IllegalMoveError, Move, RuleSet, resolve
from engine.cards import Card, Kind
from engine.perft import perft
from engine.record import Record

DATA = Path(__file__).resolve().parent / "data"
FILES = sorted(DATA.glob("perft-*.json"))
PRESETS = ["korean-2p", "korean-3p", "chips-2p", "chips-3p", "basic-2p"]
PRESETS += ["hangame-matgo", "pmang-matgo", "netmarble-matgo", "hangame-gostop", "pmang-gostop"]  # RULES.md 10.4
MONTH_CARDS = [c for c in CARDS if c.kind is not Kind.BONUS]
BONUS = [c for c in CARDS if c.kind is Kind.BONUS]


def hands(path: Path) -> list[tuple[RuleSet, dict]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return [(resolve(data["rules"]), hand) for hand in data["hands"]]


def test_there_is_a_perft_file_for_each_preset():
    assert [p.name for p in FILES] == sorted(f"perft-{preset}.json" for preset in PRESETS)


# --- a snapshot of everything a state holds ------------------------------------------------------------------

VALUES = (Card, CardSet, Move, Record, RuleSet, str, int, float, bool, type(None))  # nothing changes these


def snapshot(value: object) -> object:
    """Everything ``value`` holds, as plain data: every attribute of the state, its table and its seats (of the
    pure or the compiled build), down to values that nothing changes."""
    if isinstance(value, VALUES):
        return value
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [snapshot(v) for v in value])
    if isinstance(value, dict):
        return {k: snapshot(v) for k, v in value.items()}
    names = getattr(type(value), "__mypyc_attrs__", None)  # a class mypyc compiled has no __dict__
    if names is None:
        names = [*getattr(value, "__dict__", {})]
        names += [s for cls in type(value).__mro__ for s in getattr(cls, "__slots__", ())]
    return (type(value).__name__, {n: snapshot(getattr(value, n)) for n in names if not n.startswith("__")})


def test_the_snapshot_sees_every_field_of_the_state():
    """A snapshot that missed a field could not see a refused move change it."""
    rules, hand = hands(DATA / "perft-korean-2p.json")[0]
    state = GameState(hand["players"], rules, hand["deal"])
    shot = snapshot(state)
    assert {"rules", "players", "moves", "expects", "outcome", "winner", "go_calls", "table"} <= shot[1].keys()
    table = shot[1]["table"][1]
    assert {"layout", "layout_mask", "stock", "stock_pos", "unseen", "events", "seats"} <= table.keys()
    seat = table["seats"][1][0][1]
    assert {"hand_mask", "captured_mask", "hidden", "flip_turns", "empty_turns", "checked_mask"} <= seat.keys()
    for poke in (lambda s: setattr(s.seat("B"), "empty_turns", 1), lambda s: s.table.layout[3].append(CARDS[0])):
        other = state.copy()
        poke(other)
        assert snapshot(other) != shot


# --- candidates ------------------------------------------------------------------------------------------------


def illegal_candidates(state: GameState, legal: list[Move]) -> list[Move]:
    """Plausible moves the rules forbid here (every one of them surely illegal)."""
    out: list[Move] = []
    if state.is_over:  # nothing, but the winner's word that a last turn stopped the hand (RULES.md 7)
        out += [Move.go(p) for p in state.players] + [Move.stop(p) for p in state.players if p != state.winner]
        return out + [Move.turn(p, c) for p in state.players for c in MONTH_CARDS[::7]]
    player = state.to_move
    assert player is not None
    others = [p for p in state.players if p != player]
    seat = state.seat(player)
    layout = list(state.layout_cards())
    if state.expects is Expect.CALL:
        out += [Move(o, call=c) for o in others for c in ("go", "stop")]  # not their call
        out += [Move.turn(player, c) for c in seat.hand if c.kind is not Kind.BONUS]  # a call is due
        out.append(Move.flip_turn(player))
        return out
    out += [Move.go(player), Move.stop(player)]  # no call is due
    out += [m.replace(player=o) for m in legal[:3] for o in others]  # not their turn
    out += [Move.turn(player, c) for c in MONTH_CARDS if c not in seat.hand]  # not in hand
    out += [Move.turn(player, c) for c in BONUS if c in state.rules.deck]  # a bonus card is no "play"
    if not seat.flip_turns:
        out.append(Move.flip_turn(player))
    hand_months = {}
    for card in seat.hand:
        hand_months.setdefault(card.month, []).append(card)
    mixed = [cards[0] for cards in hand_months.values() if cards[0].kind is not Kind.BONUS][:3]
    if len(mixed) == 3:
        out.append(Move.shake_turn(player, mixed, mixed[0]))  # three cards of three months
        out.append(Move.bomb_turn(player, mixed))
    for move in legal:
        if move.kind != "turn":
            continue
        out.append(move.replace(sep_animal_as="junk"))  # a turn and a declaration at once
        if move.play is not None:
            if move.capture is not None:
                out.append(move.replace(capture=None))  # the choice is required
            elsewhere = [c for c in layout if c.month != move.play.month]
            if elsewhere:
                out.append(move.replace(capture=elsewhere[0]))  # not a card of its month
        if move.draw is not None:
            wrong = next(c for c in MONTH_CARDS if c != move.draw)
            out.append(move.replace(draw=wrong, draw_capture=None))  # not the stock top
            if move.draw_capture is not None:
                out.append(move.replace(draw_capture=None))
            elsewhere = [c for c in layout if c.month != move.draw.month]
            if elsewhere:
                out.append(move.replace(draw_capture=elsewhere[0]))
            flipped = move.bonus_flipped or ()
            out.append(move.replace(bonus_flipped=(*flipped, BONUS[0])))  # a bonus card that did not come up
            if flipped:
                out.append(move.replace(bonus_flipped=()))
        else:
            out.append(move.replace(draw=MONTH_CARDS[0]))  # the stock is empty
    known = set(legal)
    return [m for m in dict.fromkeys(out) if m not in known]


def check_agreement(state: GameState) -> list[str]:
    """legal_moves, is_legal and apply agree on the legal moves and the candidates; returns the codes of the
    refusals."""
    legal = state.legal_moves()
    before = snapshot(state)
    for move in legal:
        assert state.is_legal(move), move
        trial = state.copy()
        trial.apply(move)
        assert len(trial.moves) == len(state.moves) + 1
    assert snapshot(state) == before
    codes = []
    for move in illegal_candidates(state, legal):
        assert not state.is_legal(move), move
        with pytest.raises(IllegalMoveError) as refused:
            state.apply(move)
        assert snapshot(state) == before, f"{move} was refused but changed the state"
        codes.append(refused.value.code)
    return codes


# --- the counts ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_legal_moves_at_every_ply_and_perft_counts_match_the_file(path):
    for rules, hand in hands(path):
        line = [Move.from_dict(m, index=i) for i, m in enumerate(hand["moves"])]
        state = GameState(hand["players"], rules, hand["deal"])
        at_ply = {entry["ply"]: entry for entry in hand["perft"]}
        counts = []
        refused: list[str] = []
        for ply, move in enumerate([*line, None]):
            if ply in at_ply:
                entry = at_ply[ply]
                assert perft(state, entry["depth"]) == entry["nodes"], (hand["seed"], entry)
            counts.append(len(state.legal_moves()))
            refused += check_agreement(state)
            if move is not None:
                state.apply(move)
        assert counts == hand["legal"], hand["seed"]
        assert state.is_over and counts[-1] == 0
        assert len(refused) > 20 * len(line)  # many candidates were tried at every ply, for many reasons:
        assert {"not-your-turn", "card-not-in-hand", "capture-not-allowed", "draw-mismatch", "call-not-allowed",
                "bad-move", "game-over"} <= set(refused)  # fmt: skip


def test_the_files_show_every_kind_of_move():
    kinds = {kind for path in FILES for _, hand in hands(path) for kind in hand["kinds"]}
    assert {"bomb", "bonus", "bonus_flipped", "capture", "draw_capture", "flip", "go", "shake", "stop"} <= kinds


def test_perft_counts_lines_and_leaves_the_state_as_it_was():
    """perft(1) is the number of legal moves, perft(2) the sum of the legal moves after each of them."""
    rules, hand = hands(DATA / "perft-korean-2p.json")[0]
    state = GameState(hand["players"], rules, hand["deal"])
    before = snapshot(state)
    children = []
    for move in state.legal_moves():
        child = state.copy()
        child.apply(move)
        children.append(len(child.legal_moves()))
    assert (perft(state, 0), perft(state, 1), perft(state, 2)) == (1, len(children), sum(children))
    assert snapshot(state) == before


def test_a_cup_declaration_is_legal_at_any_turn_though_legal_moves_lists_turns_only():
    """RULES.md 3: the holder may declare whenever; ``legal_moves`` lists what the player to move may play."""
    rules, hand = hands(DATA / "perft-korean-2p.json")[0]
    state = GameState(hand["players"], rules, hand["deal"])
    for player in state.players:
        for side in ("animal", "junk"):
            move = Move.declare(player, side)
            assert move not in state.legal_moves() and state.is_legal(move)
    chips = GameState(hand["players"], resolve("chips-2p"), {"layout": hand["deal"]["layout"]})
    assert not chips.is_legal(Move.declare("A", "junk")) and chips.is_legal(Move.declare("A", "animal"))
