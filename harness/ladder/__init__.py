"""The ``ladder`` command: two computer players on duplicate deals until a sequential test decides."""
