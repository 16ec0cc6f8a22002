"""``Record``: the base of the engine's records of facts (a score, a check, a payment, an event, a move...).

A record is a plain object that nothing changes once it is made: its fields are named once, in ``fields``
(the order of its constructor's parameters), and they make its equality, its hash and its repr. Records are
not NamedTuples because the compiled engine builds hundreds of them a hand: mypyc lays a plain class out as a
C struct and builds it directly, while a NamedTuple is built through the interpreter, several times slower.
Nor are they dataclasses, for the same reason: mypyc builds a dataclass through the ``__init__`` the dataclasses
module generates, in Python: from compiled code, about 60 times slower than a Record's compiled one, from Python
about 4 times (bench/record_forms.py, docs/log.md). Only a record made once from a request (the draw for the
first dealer, a parsed log) is a frozen dataclass; the ledger's records, made once an evening, cost it 2% more
instructions as dataclasses and stay Records.
"""

from __future__ import annotations

from typing import Any, ClassVar

__all__ = ["Record"]


class Record:
    """Equal when of the same type with equal fields; shown as ``Type(field=value, ...)``."""

    __slots__ = ()
    fields: ClassVar[tuple[str, ...]] = ()

    def _values(self) -> tuple[Any, ...]:
        return tuple([getattr(self, name) for name in self.fields])

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Record)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.fields)
        return f"{type(self).__name__}({shown})"

    def __copy__(self) -> Record:
        return self  # nothing changes a record: a copy is the record itself

    def __deepcopy__(self, memo: object) -> Record:
        return self

    def replace(self, **changes: Any) -> Any:
        """A record of the same type with some fields changed (its constructor takes its fields by name)."""
        return type(self)(**{**self._asdict(), **changes})

    def _asdict(self) -> dict[str, Any]:
        """The fields by name, in order."""
        return {name: getattr(self, name) for name in self.fields}
