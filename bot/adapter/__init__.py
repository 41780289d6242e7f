"""The Discord side (README, How the code is laid out): answers interactions, carries out
the plans the presenter makes, and checks who may act. Rules and words live below it."""
