"""Write a language's catalog (service/locale/<lang>/LC_MESSAGES/messages.po) from the template and a file of
translations, one per line: the message's index in the template (in its order), a tab, the translation. Used once
to start a language; after that ``make messages`` keeps the catalog in step and it is edited as a .po."""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]


def main(lang: str, translations: Path) -> None:
    with (ROOT / "service" / "locale" / "messages.pot").open("rb") as f:
        catalog = read_po(f, locale=lang)
    said: dict[int, str] = {}
    for line in translations.read_text(encoding="utf-8").splitlines():
        if line.strip():
            index, text = line.split("\t", 1)
            said[int(index)] = text
    messages = [m for m in catalog if m.id]
    for index, message in enumerate(messages):
        text = said[index]
        message.string = text if isinstance(message.id, str) else (text,) * catalog.num_plurals
    folder = ROOT / "service" / "locale" / lang / "LC_MESSAGES"
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / "messages.po").open("wb") as f:
        write_po(f, catalog)


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]))
