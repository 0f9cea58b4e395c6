"""Game records (spec/records.md): one game a server played a JSON line, read, checked and written."""
