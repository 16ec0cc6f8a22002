"""One blueprint per resource; ``BLUEPRINTS`` is what the app registers."""

from . import cards, docs, hands, rules

BLUEPRINTS = (cards.blp, rules.blp, hands.blp, docs.blp)
