"""The Discord side (README, How the code is laid out): takes interactions in, carries out
the plans the presenter makes (executor.py), and checks who may act. Rules and words live
below it."""
