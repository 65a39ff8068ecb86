"""A Word document whose body is only a table, in a real window with the panel open.

Such a .docx (a table and nothing after it: generators write them, Word never does)
opens in LibreOffice 25.2 with no paragraph in its body, and then the body's own
getString(), getStart() and createTextCursor() kill the office. A turn from the
panel must not call them there: it answers in one plain sentence, and LibreOffice
lives. On 7.4 the import adds empty paragraphs, and the turn is an ordinary one.
"""

from tests.support import realdocs
from tests.support import sse_server as sse
from tests.support.panel_driver import PanelDriver

from marginalia.writer.toolbox import BARE


def _has_paragraph(doc):
    elements = doc.getText().createEnumeration()
    while elements.hasMoreElements():
        if elements.nextElement().supportsService("com.sun.star.text.Paragraph"):
            return True
    return False


def test_a_turn_on_a_table_only_body_answers_and_libreoffice_lives(gui_office, chat_server,
                                                                   tmp_path):
    path = realdocs.write_docx(str(tmp_path / "grid_only.docx"), "grid only")
    doc = gui_office.load(path)
    try:
        bare = not _has_paragraph(doc)
        chat_server.add(sse.text_response("Hello there."))
        panel = PanelDriver(gui_office, doc)
        panel.type("Hi")
        panel.key("Return")
        panel.wait_transcript(BARE if bare else "Hello there.")
        panel.wait_idle()
        assert gui_office.alive()
        assert doc.getTextTables().getCount() == 1
    finally:
        if gui_office.alive():
            gui_office.close(doc)
