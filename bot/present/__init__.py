"""What players read (README, How the code is laid out): the catalogs and their reader,
the messages of a table, the league's pages, the stats card, and which Discord calls show a
move, all as plain values. No Discord I/O here."""
