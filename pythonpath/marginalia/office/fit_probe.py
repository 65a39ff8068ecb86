"""What each control of a window needs, against the room it has (the fit test, issue 24).

Walks a UnoControlContainer (the panel's, with its cards and the slash list;
an Options page) and reports, for every shown control, its box and the
toolkit's own measure of its text: getMinimumSize for one line, and for a
label that wraps, calcAdjustedSize at its width (the height its words need
there). The judging is the test's (tests/gui/test_panel_fit.py); this only
reads, except ``stretch``, which lengthens every text by about 30% (German
against English) so the layout can be tried with longer words.

Plain UNO calls only: it runs in the office (job ``panel.fit``) or over the
bridge from a test alike.
"""

import math
import unicodedata
from typing import Any, Dict, List

TEXT_KINDS = ("FixedText", "Button", "CheckBox", "RadioButton")


def kind(control: Any) -> str:
    """"FixedText", "Button", "ListBox", ... from the model's service name."""
    try:
        return control.getModel().getServiceName().split(".")[-1]
    except Exception:       # a model without XPersistObject
        return "Container" if hasattr(control, "getControls") else "?"


def _text(control: Any, k: str) -> str:
    model = control.getModel()
    for prop in ("Label", "Text"):
        try:
            return str(getattr(model, prop))
        except Exception:
            continue
    return ""


def _name(control: Any) -> str:
    try:
        return control.getPeer().getAccessibleContext().getAccessibleName()
    except Exception:
        return ""


def _shown(control: Any) -> bool:
    peer = control.getPeer()
    if peer is None:
        return False
    try:
        return bool(peer.isVisible())
    except Exception:      # a peer without XWindow2
        return True


def measure(container: Any, path: str = "", ids: Dict[str, Any] = None) -> List[Dict[str, Any]]:
    """[{path, id, name, kind, text, box (x, y, w, h), room (w, h), min (w, h), need_h}].

    ``room`` is the size of the container the control sits in; ``need_h`` is
    the height a wrapping label's words take at its width (else the minimum's);
    ``id`` the name in ``ids`` ({name: control}) of the control, if there.
    Hidden controls and everything inside a hidden container are left out.
    """
    out = []
    room = container.getPosSize()
    for control in container.getControls():
        if not _shown(control):
            continue
        k = kind(control)
        r = control.getPosSize()
        if r.Width <= 0 or r.Height <= 0:
            continue
        entry = {"path": path, "name": _name(control), "kind": k, "text": _text(control, k),
                 "box": (r.X, r.Y, r.Width, r.Height), "room": (room.Width, room.Height),
                 "id": next((n for n, c in (ids or {}).items() if c == control), ""),
                 "multiline": _multiline(control), "image": _image(control)}
        if hasattr(control, "getControls") and k not in TEXT_KINDS:
            entry["kind"] = "Container"
            out.append(entry)
            out.extend(measure(control, path + "/" + (entry["name"] or "container"), ids))
            continue
        try:
            least = control.getMinimumSize()
            entry["min"] = (least.Width, least.Height)
            need = least.Height
            if k == "FixedText" and _multiline(control):
                import uno
                size = uno.createUnoStruct("com.sun.star.awt.Size", r.Width, 0)
                fit = control.calcAdjustedSize(size)
                need = fit.Height
                entry["wrap_w"] = fit.Width
                # The toolkit splits a word wider than the label inside itself ("Ne|w"):
                # its wrapped size does not tell, the word's own width does.
                from marginalia.office import text_fit
                entry["word_w"] = max(text_fit.width(control, w) for w in words(entry["text"]))
            if k in ("CheckBox", "RadioButton") and _multiline(control):
                need = _wrapped_box(control, entry, least, r.Width)
            entry["need_h"] = need
            shown = _dropdown_text(control, k)
            if shown is not None:
                # A drop-down shows one choice; its popup is as wide as its longest. The
                # room the choice needs is its text and the box's own padding, measured.
                from marginalia.office import text_fit
                entry["min"] = (text_fit.width(control, shown) + text_fit.padding(control),
                                least.Height)
                entry["text"] = shown
        except Exception:      # a control without XLayoutConstrains: box and overlap only
            pass
        out.append(entry)
    return out


def words(text: str) -> List[str]:
    """The pieces a line may not break inside: words between spaces, and each wide (CJK)
    character on its own (the toolkit breaks Chinese or Japanese between any two)."""
    out = []
    for word in text.split():
        piece = ""
        for ch in word:
            if unicodedata.east_asian_width(ch) in "WF":
                out.extend((piece, ch) if piece else (ch,))
                piece = ""
            else:
                piece += ch
        if piece:
            out.append(piece)
    return out or [""]


def wrapped_height(control: Any, k: str, width: int) -> int:
    """The height a label or tick box whose words wrap needs at ``width`` (0: not one)."""
    try:
        if not _multiline(control):
            return 0
        if k == "FixedText":
            import uno
            return control.calcAdjustedSize(
                uno.createUnoStruct("com.sun.star.awt.Size", width, 0)).Height
        if k in ("CheckBox", "RadioButton"):
            entry = {"text": control.getModel().Label}
            return _wrapped_box(control, entry, control.getMinimumSize(), width)
    except Exception:      # no peer yet, or no such property: leave it be
        pass
    return 0


def _wrapped_box(control: Any, entry: dict, least: Any, box_w: int) -> int:
    """A tick box whose words wrap: the toolkit measures it on one line only (its
    minimum), so its lines are filled word by word in its font, beside the tick. Sets
    the entry's wrapped width and longest word; returns the height its lines need."""
    from marginalia.office import text_fit
    font = text_fit._font(control)
    text = entry["text"]
    tick = max(0, least.Width - text_fit.width(control, text, font))
    lines = text_fit.wrap(lambda t: text_fit.width(control, t, font), text, box_w - tick)
    entry["wrap_w"] = tick + max(text_fit.width(control, t, font) for t in lines)
    entry["word_w"] = tick + max(text_fit.width(control, w, font) for w in words(text))
    return len(lines) * least.Height


def _dropdown_text(control: Any, k: str) -> Any:
    """The text a drop-down list box or a combo box shows now, else None."""
    try:
        if k == "ComboBox":
            return control.getText()
        if k == "ListBox" and control.getModel().Dropdown:
            return control.getSelectedItem()
    except Exception:
        pass
    return None


def _multiline(control: Any) -> bool:
    try:
        return bool(control.getModel().MultiLine)
    except Exception:
        return False


def _image(control: Any) -> bool:
    """Whether a button shows an image (an icon: its words are its tooltip and name)."""
    try:
        return bool(control.getModel().ImageURL)
    except Exception:
        return False


def longer(text: str, share: float = 0.3) -> str:
    """Every word about ``share`` longer (its first letters again): "Send" -> "SendSe"."""
    words = []
    for word in text.split(" "):
        letters = len(word)
        extra = int(math.ceil(letters * share)) if letters > 1 else 0
        words.append(word + word[:extra])
    return " ".join(words)


def stretch(container: Any, undo: List[Any] = None) -> List[Any]:
    """Make every shown control's text (and a drop-down's choices) ~30% longer.

    Returns [(model, property, old value)] for ``restore``."""
    changed = [] if undo is None else undo
    for control in container.getControls():
        if not _shown(control):
            continue
        model = control.getModel()
        k = kind(control)
        if hasattr(control, "getControls") and k not in TEXT_KINDS:
            stretch(control, changed)
            continue
        if k in TEXT_KINDS and model.Label:
            changed.append((model, "Label", model.Label))
            model.Label = longer(model.Label)
        elif k == "ComboBox" or (k == "ListBox" and model.Dropdown):
            # A drop-down's choices are words a translation changes; a list's rows are
            # data (changes, prompts, sources) the product shortens to fit at any length.
            items = tuple(longer(item) for item in model.StringItemList)
            if items:
                changed.append((model, "StringItemList", tuple(model.StringItemList)))
                chosen = tuple(model.SelectedItems) if k == "ListBox" else ()
                model.StringItemList = items
                if chosen:
                    model.SelectedItems = chosen
    return changed


def restore(changed: List[Any]) -> None:
    """Put back the texts ``stretch`` lengthened."""
    for model, prop, value in reversed(changed):
        setattr(model, prop, value)
