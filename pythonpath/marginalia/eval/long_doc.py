"""A long source document (about 20,000 characters) made from a seed, not stored (pure).

It is longer than a small model's window, so the task on it can only be done
by searching for the one paragraph it concerns rather than reading it all.
The sentences are built deterministically so every run sees the same text.
"""

from typing import List

from marginalia.eval.odf import Source

_SUBJECTS = ["The warehouse", "The north office", "The delivery team", "The front desk",
             "The night shift", "The audit group", "The supplier", "The cleaning crew"]
_VERBS = ["reviewed", "updated", "checked", "filed", "signed", "sorted", "counted", "sent"]
_OBJECTS = ["the weekly orders", "the stock list", "the travel forms", "the safety notes",
            "the meeting minutes", "the price sheets", "the shipping labels", "the key log"]
_TAILS = ["before the end of the day", "after a short delay", "with the usual care",
          "as agreed in the spring", "without any problem", "on the second attempt"]

LONG_TARGET = 41          # the paragraph (0-based) holding the one fact the task changes
LONG_FACT = "The invoice number for the harbour contract is 4471."


def _paragraph(seed: int) -> str:
    sentences = []
    for k in range(5):
        n = seed * 7 + k * 3
        sentences.append("%s %s %s %s." % (_SUBJECTS[n % 8], _VERBS[(n // 8) % 8],
                                          _OBJECTS[(n + k) % 8], _TAILS[(n + seed) % 6]))
    return " ".join(sentences)


def _build() -> List[Source]:
    out: List[Source] = [("Heading 1", "Operations log", False)]
    for index in range(1, 70):
        if index % 10 == 0:
            out.append(("Heading 2", "Week %d" % (index // 10 + 1), False))
        elif index == LONG_TARGET:
            out.append(("Text body", LONG_FACT + " " + _paragraph(index), False))
        else:
            out.append(("Text body", _paragraph(index), False))
    return out


LONG = _build()

# The same document with one day of the week misspelled in one paragraph of week 6.
TYPO_TARGET = 57
TYPO_SENTENCE = "The warehouse will be closed on Wensday for the yearly count."
LONG_TYPO = [block if index != TYPO_TARGET else
             (block[0], TYPO_SENTENCE + " " + block[1], block[2])
             for index, block in enumerate(LONG)]


def week(number: int) -> int:
    """The index of the heading "Week <number>" (weeks 2 to 7; week 1 has none)."""
    return (number - 1) * 10
