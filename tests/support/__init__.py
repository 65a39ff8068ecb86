"""Test helpers, imported as ``tests.support.<module>`` from every tier.

sse_server: the scripted model server; office: the private LibreOffice harness;
writer: building Writer documents and running tool turns; panel_driver: the chat
panel in a real window, through accessibility.
"""
