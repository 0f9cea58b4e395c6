"""CardVerse rule documents: read in any of their languages, compared with each other and with the spec."""
