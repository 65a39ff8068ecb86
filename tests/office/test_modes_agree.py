"""The three apply modes are the same edit, over generated documents and edits (fixed seeds).

For each case the same call runs on copies of one generated document: directly;
tracked, then the card's Accept All of that turn; tracked, then its Reject All;
Comment only, then Apply on each proposal; directly, then one Undo. Accepting
must give exactly the direct result, rejecting and undoing exactly the original,
applying the proposals the direct result, Redo after the Undo the direct result
again: text, styles, list labels, formatting
runs, tables, comments, notes, bookmarks and the document's own earlier tracked
changes all count (tests.support.docsnap). A failing case prints its seed, its
document and its call. MARGINALIA_MODE_CASES sets how many cases run (default 40).
"""

import os

import pytest

from tests.support.docsnap import snapshot
from tests.support.modecases import Case
from tests.support.writer import turn

CASES = int(os.environ.get("MARGINALIA_MODE_CASES", "40"))


def _run(office, case, mode):
    doc = case.make(office)
    # The rewrite protocol's edit: the turn shows the document first, as a chat turn does.
    options = {"protocol": "rewrite", "shown": 6000} if case.call[0] == "edit" else {}
    result = turn(office, doc, case.call, apply=mode, title="case %d" % case.seed,
                  **options)[0]
    return doc, result


def _turn_number(office, doc):
    turns = office.job("review.turns", document=doc)["turns"]
    return turns[-1] if turns else None


def _differences(got, want):
    """What differs, small: per block the fields that differ, else the whole entry."""
    out = []
    for key in got:
        if got[key] == want.get(key):
            continue
        if key == "body" and len(got[key]) == len(want[key]):
            for number, (a, b) in enumerate(zip(got[key], want[key]), 1):
                if a != b:
                    fields = [k for k in a if a.get(k) != b.get(k)] or ["table"]
                    out.append("block %d %s: got %r, want %r" % (
                        number, "/".join(fields), [a.get(k) for k in fields],
                        [b.get(k) for k in fields]))
        elif key == "body":
            out.append("blocks: got %r, want %r" % ([b.get("text") for b in got[key]],
                                                    [b.get("text") for b in want[key]]))
        else:
            out.append("%s: got %r, want %r" % (key, got[key], want.get(key)))
    return "\n".join(out)


def _check(case, what, got, want):
    assert got == want, "%s differs for %s\n%s" % (what, case.describe(),
                                                    _differences(got, want))


@pytest.mark.parametrize("seed", range(CASES))
def test_accept_reject_apply_and_undo_agree_with_the_direct_edit(office, seed):
    case = Case(seed)
    copies = []
    try:
        original = case.make(office)
        copies.append(original)
        before = snapshot(original)
        direct, result = _run(office, case, "direct")
        copies.append(direct)
        ok = result["ok"]
        after = snapshot(direct)
        if not ok:
            # A refusal changes nothing, in every mode.
            _check(case, "a refused direct call", after, before)
        for mode, action, want in (("tracked", "accept_all", after),
                                   ("tracked", "reject_all", before),
                                   ("comments", "apply", after)):
            doc, other = _run(office, case, mode)
            copies.append(doc)
            assert other["ok"] == ok, "%s: %s answered %r, direct %r" % (
                case.describe(), mode, other["content"], result["content"])
            logged = _turn_number(office, doc)
            if ok and logged is not None:
                if action == "apply":
                    for change in logged["changes"]:
                        if change["state"] == "proposed":
                            office.job("review.act", document=doc, action="apply",
                                       change=change["id"])
                else:
                    office.job("review.act", document=doc, action=action,
                               turn=logged["number"])
            _check(case, "%s then %s" % (mode, action), snapshot(doc), want)
        manager = direct.getUndoManager()
        steps = len(manager.getAllUndoActionTitles())
        # One step; none for a refusal (a no-op, such as bold on bold text, may have one).
        assert steps == 1 if after != before else steps <= int(ok), case.describe()
        if steps:
            manager.undo()
            _check(case, "one undo of the direct turn", snapshot(direct), before)
            # What the undo put back (writer.mark_keeper) must not misplace the redo.
            manager.redo()
            _check(case, "redo after the undo", snapshot(direct), after)
    finally:
        for doc in copies:
            office.close(doc)
