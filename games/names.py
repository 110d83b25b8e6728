"""Display names: what a player may call themselves on the leaderboards.

A display name is optional. It is checked here, in one place, for the API,
the My games page and the tests:

- 3 to 24 characters after surrounding spaces are dropped, runs of spaces
  made one and the text put in Unicode NFKC form;
- letters and digits (any script), spaces, ``_``, ``-`` and ``.``; the first
  and the last character a letter or a digit;
- no invisible character: none of Unicode's default-ignorable code points
  (``Default_Ignorable_Code_Point``, through ICU), among them the Hangul
  fillers (U+115F, U+1160, U+3164, U+FFA0), which count as letters yet show
  nothing, so ``Ada<filler>Lovelace`` could pass for ``Ada Lovelace`` and a
  name of fillers alone would show blank; and something visible;
- not 24 hexadecimal characters (that is what a pseudonym looks like on the
  leaderboards, so a name could pass for another player's);
- no word of the list in ``games/data/blocked_words.txt`` in the name once
  case, accents, look-alike digits and letters of other scripts that look
  like Latin ones (a Cyrillic es for ``c``) are set aside: most entries
  anywhere in its letters (separators dropped), the short ones that hide
  inside ordinary names (``shit`` in Yoshitaka, ``cunt`` in Scunthorpe) only
  as a word of their own (see :func:`name_words`), alone or with a plural
  ``s``.

Two names that look alike cannot both be taken. They are compared by two
keys, each unique among players (``Player.display_name_key`` and
``Player.display_name_shape_key``), both built on the Unicode confusable
skeleton (UTS #39), with invisible characters left out:

- ``display_name_key``: the skeleton of the case-folded name, case-folded
  again: names that differ only in case collide (``aDA``, ``EMMA`` and
  ``Emma``), and so do ``Ada`` written with a Cyrillic or a Lisu capital A;
- ``display_name_shape_key``: the skeleton of the name as typed, then
  case-folded: a capital that looks like another lowercase letter collides
  with it (``AIan`` with a capital i and ``Alan``, ``IIIIII`` and
  ``llllll``), which folding first would hide (``aian`` is not ``alan``).

One key cannot do both (``AIAN`` is ``aian`` in another case and looks like
``ALAN``, yet ``aian`` and ``alan`` differ). The service checks both
(``games.services``).

The skeleton is ICU's (``SpoofChecker.getSkeleton``, through PyICU): the
reference implementation of UTS #39, with the confusables data of the
Unicode version that ICU ships.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import icu

from core.pseudonyms import is_pseudonym

DISPLAY_NAME_MIN_LENGTH = 3
DISPLAY_NAME_MAX_LENGTH = 24
# What a request may send at most (longer input is refused before any work).
DISPLAY_NAME_INPUT_MAX_LENGTH = 200
NAME_PUNCTUATION = frozenset(" _-.")
BLOCKED_WORDS_FILE = Path(__file__).resolve().parent / "data" / "blocked_words.txt"
LOOK_ALIKE_DIGITS = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s",
                                   "7": "t", "8": "b", "@": "a", "$": "s"})
_SPACES = re.compile(r"\s+")
# Characters that show nothing (ICU's set of Unicode's default-ignorable code points),
# frozen so that threads may read it at once.
_INVISIBLE = icu.UnicodeSet("[:Default_Ignorable_Code_Point:]")
_INVISIBLE.freeze()
_NOT_ASCII = re.compile(r"[^\x00-\x7f]+")


class DisplayNameError(ValueError):
    """Why a display name is refused: ``code`` (stable) and a message for people."""

    def __init__(self, *, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class BlockedWords:
    """The list's entries: those refused anywhere in a name, and those only as a word."""

    anywhere: frozenset[str]
    whole_word: frozenset[str]

    def __len__(self) -> int:
        return len(self.anywhere) + len(self.whole_word)


@cache
def blocked_words() -> BlockedWords:
    anywhere, whole_word = set(), set()
    for line in BLOCKED_WORDS_FILE.read_text(encoding="utf-8").splitlines():
        entry = line.strip().lower()
        if not entry or entry.startswith("#"):
            continue
        if entry.startswith("="):
            whole_word.add(entry[1:])
        else:
            anywhere.add(entry)
    return BlockedWords(frozenset(anywhere), frozenset(whole_word))


def normalize_display_name(text: str) -> str:
    """The name as it is stored: NFKC, no surrounding spaces, single spaces inside."""
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", text)).strip()


@cache
def _spoof_checker() -> Any:
    # ICU allows one checker to be used by many threads at once for skeletons.
    return icu.SpoofChecker()


def confusable_skeleton(text: str) -> str:
    """The Unicode confusable skeleton of ``text`` (UTS #39, section 4).

    Two texts that can be taken for each other share their skeleton
    (``Ada`` with a Cyrillic capital A, and ``Ada``). A skeleton is a key to
    compare, not a text to show: it maps ``m`` to ``rn`` and ``I`` to ``l``.
    """
    return str(_spoof_checker().getSkeleton(0, text))


def is_invisible(char: str) -> bool:
    """Does ``char`` show nothing (a default-ignorable code point, e.g. a Hangul filler)?"""
    return bool(_INVISIBLE.contains(char))


def visible_text(name: str) -> str:
    """``name`` without its invisible characters: what a reader sees."""
    return "".join(char for char in name if not is_invisible(char))


def display_name_key(name: str) -> str:
    """The key of a (normalized) name that names differing only in case share.

    Invisible characters are left out, the name is case-folded, reduced to
    its confusable skeleton and case-folded again (the skeleton of the Lisu
    letter A is the Latin capital ``A``). At most 7 characters per
    character of the name (``Player.display_name_key``).
    """
    return confusable_skeleton(visible_text(name).casefold()).casefold()


def display_name_shape_key(name: str) -> str:
    """The key of a (normalized) name that names of the same shape as typed share.

    The skeleton of the name as typed (a capital ``I`` reads as ``l``), then
    case-folded; invisible characters left out. Same bound as
    :func:`display_name_key` (``Player.display_name_shape_key``).
    """
    return confusable_skeleton(visible_text(name)).casefold()


def _latin_lookalikes(text: str) -> str:
    """``text`` with every character outside ASCII replaced by its confusable skeleton.

    ASCII stays as it is, as the word list is written: the skeleton of ``m``
    is ``rn``, which would make ``Emma`` read as ``ernrna``.
    """
    return _NOT_ASCII.sub(lambda run: confusable_skeleton(run.group()), text)


def _letters(name: str) -> str:
    """The name's ASCII letters, lowercase, for the word list.

    Look-alikes of other scripts are read as the Latin letters they look like,
    accents and separators are dropped and digits are read as letters.
    """
    folded = _latin_lookalikes(name).casefold().translate(LOOK_ALIKE_DIGITS)
    decomposed = unicodedata.normalize("NFKD", folded)
    return "".join(char for char in decomposed if "a" <= char <= "z")


# A word ends at a separator, or where a lowercase letter meets a capital ("ShitHead").
_WORD_BREAK = re.compile(r"[\s_.\-]+|(?<=[a-z])(?=[A-Z])")


def name_words(name: str) -> list[str]:
    """The words of a name, as lowercase letters, for the entries matched only as a word.

    Words are split at spaces, ``_``, ``-``, ``.`` and lowercase-to-capital
    changes; a run of one-character words is read as one word as well
    (``B.i.t.c.h``), so spelling a word out letter by letter does not hide it.
    """
    words = [_letters(part) for part in _WORD_BREAK.split(_latin_lookalikes(name))]
    words = [word for word in words if word]
    spelled, run = [], ""
    for word in [*words, ""]:
        if len(word) == 1:
            run += word
            continue
        if len(run) > 1:
            spelled.append(run)
        run = ""
    return words + spelled


def is_offensive(name: str) -> bool:
    blocked = blocked_words()
    letters = _letters(name)
    if any(word in letters for word in blocked.anywhere):
        return True
    return any(
        word in blocked.whole_word
        or (word.endswith("s") and word[:-1] in blocked.whole_word)
        or (word.endswith("es") and word[:-2] in blocked.whole_word)
        for word in name_words(name)
    )


def validate_display_name(text: str) -> str:
    """The display name to store for ``text``, or DisplayNameError saying why not."""
    name = normalize_display_name(text)
    if not DISPLAY_NAME_MIN_LENGTH <= len(name) <= DISPLAY_NAME_MAX_LENGTH:
        raise DisplayNameError(
            code="display_name_length",
            message=f"A display name has {DISPLAY_NAME_MIN_LENGTH} to "
            f"{DISPLAY_NAME_MAX_LENGTH} characters.",
        )
    if any(not (char.isalnum() or char in NAME_PUNCTUATION) for char in name) or not (
        name[0].isalnum() and name[-1].isalnum()
    ):
        raise DisplayNameError(
            code="display_name_characters",
            message="A display name has letters, digits, spaces, _, - and . only, and "
            "starts and ends with a letter or a digit.",
        )
    if any(is_invisible(char) for char in name) or not visible_text(name).strip():
        raise DisplayNameError(
            code="display_name_characters",
            message="A display name may not hold invisible characters (such as "
            "Hangul fillers), and must show something.",
        )
    if is_pseudonym(name.lower()):
        raise DisplayNameError(
            code="display_name_characters",
            message="A display name may not look like a player pseudonym "
            "(24 hexadecimal characters).",
        )
    if is_offensive(name):
        raise DisplayNameError(
            code="display_name_offensive",
            message="This display name is not allowed. Please pick another.",
        )
    return name
