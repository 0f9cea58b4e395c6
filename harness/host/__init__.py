"""The machine the kit runs on: the cores it may use, the terminal it draws progress on, the files it writes and reads."""
