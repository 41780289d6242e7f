"""Offline tools: run by hand, never imported by the bot."""
