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
