"""One blueprint per resource; ``BLUEPRINTS`` is what the app registers."""

from . import cards, docs, hands, replay, rules

BLUEPRINTS = (cards.blp, rules.blp, hands.blp, replay.blp, docs.blp)
