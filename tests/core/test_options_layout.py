"""The Options page's .xdl fits the Options dialog's page area, which clips without scrolling."""

import os
from xml.etree import ElementTree

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DLG = "{http://openoffice.org/2000/dialog}"
# The page area of Tools > Options at its default size, in dialog units, measured from a
# screenshot of the real dialog (LibreOffice 7.4, gen): a page taller than this loses its
# last rows, as the Editing section once did.
PAGE_AREA_HEIGHT = 224
PAGE_AREA_WIDTH = 260


def _controls():
    root = ElementTree.parse(os.path.join(ROOT, "dialogs", "OptionsPage.xdl")).getroot()
    return root, list(root.find(DLG + "bulletinboard"))


def test_the_page_and_every_control_fit_the_page_area():
    window, controls = _controls()
    assert int(window.get(DLG + "height")) <= PAGE_AREA_HEIGHT
    assert int(window.get(DLG + "width")) <= PAGE_AREA_WIDTH
    assert len(controls) > 20
    for control in controls:
        bottom = int(control.get(DLG + "top")) + int(control.get(DLG + "height"))
        right = int(control.get(DLG + "left")) + int(control.get(DLG + "width"))
        assert bottom <= int(window.get(DLG + "height")), control.get(DLG + "id")
        assert right <= int(window.get(DLG + "width")), control.get(DLG + "id")


def _box(control):
    return tuple(int(control.get(DLG + k)) for k in ("left", "top", "width", "height"))


def test_test_connection_comes_after_every_setting_it_tries_in_reading_and_tab_order():
    """It sat between Context window and Temperature, so a user pressed it before setting
    what it tries (issue 39); the keyboard reaches it after them too."""
    _window, controls = _controls()
    by_id = {c.get(DLG + "id"): c for c in controls}
    test = by_id["TestButton"]
    for tried in ("ModelCombo", "ContextField", "ReasoningList", "TemperatureField",
                  "MaxTokensField", "RoundsField", "ExtraField"):
        left, top, width, height = _box(by_id[tried])
        assert _box(test)[1] >= top + height, tried
        assert int(test.get(DLG + "tab-index")) > int(by_id[tried].get(DLG + "tab-index"))
    # Tab order is reading order, and the file's order is the tab order (screen readers
    # walk the children in it).
    order = [int(c.get(DLG + "tab-index")) for c in controls]
    assert order == sorted(order) and len(set(order)) == len(order)
    # ... and goes down the page: a control never sits above the one before it (a label
    # sits 2 units below its field's top, beside it).
    tops = [_box(c)[1] for c in controls]
    assert all(b >= a - 3 for a, b in zip(tops, tops[1:])), tops
