"""The command's own words (headings and labels around the answers), one catalog per language.

The sentences inside the answers come from the service in the asked language; these are only the few words
the terminal tables put around them, in the table's own vocabulary (GLOSSARY.md; the page's words.js).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

__all__ = ["LANGUAGES", "NAMES", "WORDS", "language_from_environment", "named"]

LANGUAGES = ("en", "ko")

WORDS: Mapping[str, Mapping[str, str]] = {
    "en": {
        "points": "points",
        "combination": "combination",
        "cards": "cards",
        "counts": "brights {brights} · animals {animals} · ribbons {ribbons} · junk units {junk_units}",
        "total": "{total} points",
        "from": "from",
        "to": "to",
        "amount": "amount",
        "factors": "factors",
        "rule": "rule",
        "applied": "applied",
        "factor": "factor",
        "reason": "reason",
        "yes": "yes",
        "no": "-",
        "checks_of": "{payer} pays {payee}: every rule checked",
        "wins": "{winner} wins ({outcome}), {base} base points",
        "nagari": "nagari: nobody pays",
        "nobody_pays": "nobody pays",
        "move": "move",
        "player": "player",
        "event": "event",
        "detail": "detail",
        "events": "events",
        "instant_payments": "paid at once",
        "captured": "captured",
        "score": "score",
        "go": "go",
        "hand": "hand",
        "finished": "finished",
        "in_progress": "in progress: {player} to {expects}",
        "expects_play": "play",
        "expects_call": "call go or stop",
        "expects_flip": "flip",
        "if_stop": "a stop now would pay",
        "legal": "legal",
        "illegal": "illegal at move {move} ({player})",
        "refused": "refused ({status} {code})",
        "at_move": "at move {move}",
        "recorded": "recorded",
        "ruled": "ruled",
        "agree": "the recorded payments agree with the ruling",
        "differ": "the recorded payments differ from the ruling",
        "unfinished": "the log is not finished, but payments were recorded",
        "preset": "preset",
        "players": "players",
        "description": "description",
        "knob": "knob",
        "value": "value",
        "field": "field",
        "message": "message",
        "total_won": "won or lost",
        "balance": "holds",
        "settle_up": "to settle up",
        "card": "card",
        "month": "month",
        "kind": "kind",
        "junk_units": "junk units",
        "name": "name",
        "no_preset": "there is no preset {preset}; the presets are {presets}",
    },
    "ko": {
        "points": "점수",
        "combination": "족보",
        "cards": "패",
        "counts": "광 {brights} · 열끗 {animals} · 띠 {ribbons} · 피 {junk_units}",
        "total": "{total}점",
        "from": "내는 사람",
        "to": "받는 사람",
        "amount": "금액",
        "factors": "배수",
        "rule": "규칙",
        "applied": "적용",
        "factor": "배수",
        "reason": "이유",
        "yes": "적용",
        "no": "-",
        "checks_of": "{payer} → {payee}: 따져 본 규칙",
        "wins": "{winner} 승리 ({outcome}), 기본 {base}점",
        "nagari": "나가리: 아무도 내지 않습니다",
        "nobody_pays": "아무도 내지 않습니다",
        "move": "수",
        "player": "사람",
        "event": "일",
        "detail": "내용",
        "events": "판에서 생긴 일",
        "instant_payments": "바로 받는 돈",
        "captured": "먹은 패",
        "score": "점수",
        "go": "고",
        "hand": "손패",
        "finished": "판 끝",
        "in_progress": "진행 중: {player} 차례 ({expects})",
        "expects_play": "패 내기",
        "expects_call": "고 또는 스톱",
        "expects_flip": "뒤집기",
        "if_stop": "지금 스톱하면",
        "legal": "규칙대로입니다",
        "illegal": "{move}번째 수 ({player})가 규칙에 어긋납니다",
        "refused": "받아들일 수 없습니다 ({status} {code})",
        "at_move": "{move}번째 수",
        "recorded": "기록",
        "ruled": "판정",
        "agree": "기록된 돈 계산이 판정과 같습니다",
        "differ": "기록된 돈 계산이 판정과 다릅니다",
        "unfinished": "판이 끝나지 않았는데 돈 계산이 기록되어 있습니다",
        "preset": "규칙 묶음",
        "players": "사람 수",
        "description": "설명",
        "knob": "규칙",
        "value": "값",
        "field": "항목",
        "message": "내용",
        "total_won": "딴 돈",
        "balance": "남은 돈",
        "settle_up": "마지막 셈",
        "card": "패",
        "month": "달",
        "kind": "종류",
        "junk_units": "피 수",
        "name": "이름",
        "no_preset": "없는 규칙 묶음입니다: {preset}. 있는 규칙 묶음: {presets}",
    },
}


# The table's names for the API's machine values (rules, events, outcomes); English shows the values themselves.
NAMES: Mapping[str, Mapping[str, str]] = {
    "en": {},
    "ko": {
        "go": "고",
        "shake": "흔들기",
        "bomb": "폭탄",
        "meongtta": "멍따",
        "pibak": "피박",
        "gwangbak": "광박",
        "gobak": "고박",
        "nagari": "나가리",
        "empty-loser": "아무것도 못 먹은 사람",
        "ppuk": "뻑",
        "chok": "쪽",
        "ttadak": "따닥",
        "sseul": "쓸",
        "ja-ppuk": "자뻑",
        "stack-capture": "뻑 먹기",
        "bonus": "보너스패",
        "steal": "피 뺏기",
        "stop": "스톱",
        "chongtong": "총통",
        "three-ppuk": "삼뻑",
        "heodang": "허당",
        "redeal": "재경기",
        "brights": "광",
        "animals": "열끗",
        "godori": "고도리",
        "ribbons": "띠",
        "hongdan": "홍단",
        "cheongdan": "청단",
        "chodan": "초단",
        "junk": "피",
        "bright": "광",
        "animal": "열끗",
        "ribbon": "띠",
    },
}


def named(value: str, lang: str) -> str:
    """A rule, event, outcome or combination as the table says it in ``lang``."""
    return NAMES[lang].get(value, value)


def language_from_environment(environ: Mapping[str, str] = os.environ) -> str:
    """``ko`` or ``en`` from the locale the way POSIX ranks it: LC_ALL, then LC_MESSAGES, then LANG."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            return "ko" if value.lower().startswith("ko") else "en"
    return "en"
