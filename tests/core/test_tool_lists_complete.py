"""Every list kept apart from document.tool_specs names every tool it must (issue 38).

The no-harm suite (tests/support/noharm.py), the apply modes' property test
(tests/support/modecases.py), the review list's words (ui.change_list) and the tools
protocol's system prompt keep their own lists; a tool added to the declarations and
missing from one of them would be skipped silently. The two suites' lists are read from
their source (they import uno, which the pure tier has not).
"""

import ast
from pathlib import Path

from marginalia.chat import prompt
from marginalia.document import tool_specs
from marginalia.ui import change_list

SUPPORT = Path(__file__).resolve().parents[1] / "support"


def _constant(path: Path, name: str):
    """The literal value assigned to ``name`` at the top of a module."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == name for t in node.targets):
            return ast.literal_eval(node.value)
    raise AssertionError("%s has no %s" % (path.name, name))


def _editing_tools():
    """The tools a model or an agent can call that change a document."""
    return {s.name for s in tool_specs.SPECS if s.edits and s.protocols}


def test_the_no_harm_suite_tries_every_editing_tool():
    assert set(_constant(SUPPORT / "noharm.py", "TOOLS")) == _editing_tools()


def test_the_modes_property_test_draws_every_editing_tool():
    assert set(_constant(SUPPORT / "modecases.py", "EDITS")) == _editing_tools()


def test_the_review_list_has_a_word_for_every_kind_of_change():
    kinds = {s.kind for s in tool_specs.SPECS if s.kind}
    assert kinds <= set(change_list._KINDS), kinds - set(change_list._KINDS)


# Tools the guide has never named, each for a reason; any other tool left out fails.
# replace_selection reaches the model by its schema alone: naming it changes the prompt,
# which only the eval may judge (a run of the old protocol, not made for this list).
UNNAMED = {"replace_selection"}


def test_the_tools_protocol_prompt_names_every_tool_it_offers_for_editing():
    offered = [s.name for s in tool_specs.offered(tool_specs.TOOLS) if s.edits]
    missing = [name for name in offered if name not in prompt.SYSTEM_PROMPT]
    assert set(missing) == UNNAMED, "the system prompt's tool guide leaves out %s" % missing
