"""The panel's Tab and painting order (office.tab_order): overlays keep CONTROLS' order."""

from marginalia.office import tab_order


def test_lists_stay_before_the_jump_button_they_are_painted_over():
    # VCL paints the earlier sibling on top: the "/" list open over the conversation's
    # bottom must come before the jump button lying there too, or the button hides it.
    boxes = {"transcript": (100, 0), "jump": (300, 150), "slash_list": (250, 0),
             "mention_list": (250, 0), "input": (400, 0), "placeholder": (402, 2),
             "send": (400, 150), "chat_hint": (104, 4)}
    names = tab_order.order(boxes)
    assert names.index("slash_list") < names.index("jump") < names.index("transcript")
    assert names.index("mention_list") < names.index("jump")
    assert names.index("placeholder") == names.index("input") - 1
    # The empty chat's hint lies on the conversation: painted over it, so just before it.
    assert names == ("slash_list", "mention_list", "jump", "chat_hint", "transcript",
                     "placeholder", "input", "send")

