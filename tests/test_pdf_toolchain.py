"""WeasyPrint finds its system libraries (Pango, fonts) and pypdf reads what it writes."""
from io import BytesIO

from pypdf import PdfReader
from weasyprint import HTML


def test_weasyprint_renders_german_text():
    pdf = HTML(string="<h1>Spielliste Tisch 3</h1><p>Kreuz-Dame, Füchse, Augen: 121</p>").write_pdf()
    text = PdfReader(BytesIO(pdf)).pages[0].extract_text()
    assert "Spielliste Tisch 3" in text
    assert "Füchse" in text
