"""A provably fair cup: commit to hidden dice before anyone answers, reveal the salt after.

When dice go under the cup the bot publishes ``sha256("<high>-<low>:<salt>")``. The salt
is a fresh random secret, so the hash gives nothing away; when the cup is lifted the bot
shows dice and salt, and anyone can recompute the hash to check the dice were not swapped.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass


def new_salt() -> str:
    return secrets.token_hex(16)


def message(dice: tuple[int, int], salt: str) -> str:
    """The exact text that is hashed; shown to players so they can check it themselves."""
    high, low = max(dice), min(dice)
    return f"{high}-{low}:{salt}"


def commitment(dice: tuple[int, int], salt: str) -> str:
    return hashlib.sha256(message(dice, salt).encode("ascii")).hexdigest()


def verify(dice: tuple[int, int], salt: str, published: str) -> bool:
    return secrets.compare_digest(commitment(dice, salt), published)


@dataclass(frozen=True, slots=True)
class Commitment:
    dice: tuple[int, int]
    salt: str
    digest: str

    @classmethod
    def seal(cls, dice: tuple[int, int], salt: str | None = None) -> Commitment:
        salt = salt or new_salt()
        return cls(dice, salt, commitment(dice, salt))

    def to_dict(self) -> dict[str, object]:
        return {"dice": list(self.dice), "salt": self.salt, "digest": self.digest}

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Commitment:
        dice = data["dice"]
        assert isinstance(dice, list)
        return cls((int(dice[0]), int(dice[1])), str(data["salt"]), str(data["digest"]))
