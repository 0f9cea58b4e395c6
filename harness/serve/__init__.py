"""An in-process engine behind the protocol (stdio and HTTP), and ``smoke``, the protocol check of a remote engine."""
