"""What players read (README, How the code is laid out): the catalogs and their reader,
the messages of a table, the league's pages, the stats card, which Discord calls show a
move and what each channel shows, all as plain values. No Discord I/O here."""
