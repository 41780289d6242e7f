"""Every message about a table: the turn message, private replies, the lobby, the end of a
game, reminders and refusals, built from the table, the move's outcome and the viewer.

Pure functions into ``Reply`` values: no Discord I/O and no rules. What is legal, who
must choose and who may see the cup are the engine's answers; this module only words
them and lays them out for a phone: the player to act named (and pinged only when the
turn passes to them), one fact once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.ai.personas import next_id, next_persona, persona_of
from bot.engine import RANK, Act, Dice, Game, GameError, Move, Rolled
from bot.engine.result import counts, places, takes_part, winners
from bot.engine.rolls import spellings_for
from bot.game.fairness import Commitment, message
from bot.game.tables import Outcome, Table
from bot.league.service import PAIR_GAMES, GameResult
from bot.present import ids
from bot.present import ranking as league
from bot.present.i18n import Talk, talk
from bot.present.message import (
    CONTENT_LIMIT,
    LABEL_LIMIT,
    MENU_OPTIONS,
    OPTION_LIMIT,
    Button,
    Component,
    Embed,
    Menu,
    Reply,
    Style,
    clip,
)
from bot.present.story import story
from bot.present.words import Words, amount, drinks, listing, mention_ids, ruleset_name, who

#: Seal characters a Cup button's id carries to find its cup; the seal itself is in the
#: button's private answer, where a player checks it (README, How the table talks).
SEAL_SHOWN = 10
#: Joins the live cup's and the last lifted cup's seals in one Cup button's id.
SEAL_JOIN = "_"
#: Lines of earlier moves a turn message keeps above the newest move's lines.
KEEP_LINES = 6

#: Buttons by move: catalog key of the label, and style.
BUTTONS: dict[Act, tuple[str, Style]] = {
    Act.JOIN: ("button-join", "success"),
    Act.LEAVE: ("button-leave", "secondary"),
    Act.START: ("button-start", "primary"),
    Act.ROLL: ("button-roll", "primary"),
    Act.ROLL_BLIND: ("button-roll-blind", "secondary"),
    Act.ACCEPT: ("button-accept", "secondary"),
    Act.BULLSHIT: ("button-bullshit", "danger"),
    Act.FOLD: ("button-fold", "secondary"),
    Act.STAND: ("button-stand", "success"),
    Act.KEEP: ("button-keep", "secondary"),
    Act.ENDROUND: ("button-end-round", "danger"),
    Act.TAP: ("button-tap", "danger"),
    Act.ADD_COMPUTER: ("button-add-computer", "secondary"),
}
MENUS: dict[Act, str] = {
    Act.CLAIM: "menu-claim",
    Act.PASS: "menu-pass",
    Act.HANDOUT: "menu-handout",
    Act.KNIGHT: "menu-knight",
}
#: A claim's answers say what follows them: taking the cup is accepting the claim.
ANSWER_LABELS = {
    Act.ROLL: "button-accept-roll",
    Act.ROLL_BLIND: "button-accept-blind",
    Act.ACCEPT: "button-accept-pass",
}
#: How the open-roll prompt names each choice the mover has.
OPEN_CHOICES = {Act.ROLL: "choice-roll", Act.KEEP: "choice-keep", Act.STAND: "choice-stand"}
TOOLS: dict[str, tuple[str, Style]] = {
    ids.CHECK_CUP: ("button-cup", "secondary"),
    ids.REMATCH: ("button-rematch", "primary"),
}


def table_talk(table: Table) -> Talk:
    """The language the table speaks in the channel (chosen at /newgame)."""
    return talk(table.meta.language)


# --- the pieces --------------------------------------------------------------------------


def prompt(game: Game, t: Talk) -> str:
    """What the player to act must do, naming them."""
    mover = game.to_move
    p = who(mover, t)
    if mover in game.computers:
        return t("prompt-thinking", p=p)
    choice = game.owes_choice(mover) if mover else None
    if choice is Act.HANDOUT:
        return t("prompt-handout", p=p)
    if choice is Act.KNIGHT:
        return t("prompt-knight", p=p)
    if game.bluffing:
        stage = game.stage
        if stage == "answer":
            return t("prompt-answer", p=p)
        if stage == "rolled":
            return t("prompt-claim-seen" if mover in game.seen_by else "prompt-claim", p=p)
        if stage == "accepted":
            return t(
                "prompt-accepted-pass" if game.can_pass_after_accept() else "prompt-accepted", p=p
            )
        if stage == "reroll":
            return t("prompt-reroll", p=p)
        return t("prompt-roll-cup", p=p)
    if game.rolloff is not None:
        return t("prompt-rolloff", p=p)
    if game.last is None:
        return t("prompt-your-roll", p=p)
    acts = {m.act for m in game.legal_actions(mover)} if mover else set()
    said = [
        t(OPEN_CHOICES[a]) if a in OPEN_CHOICES else Words.of(game, t).ending("choice")
        for a in (Act.ROLL, Act.KEEP, Act.STAND, Act.ENDROUND)
        if a in acts
    ]
    if not said:
        return t("prompt-your-move", p=p)
    return t("prompt-choices", p=p, choices=listing(said, t, word="or"))


def status(table: Table, t: Talk) -> str:
    """The state a player needs for the move at hand, on one line."""
    game, meta = table.game, table.meta
    bits = []
    if not game.bluffing and game.rolloff is None and game.to_move is not None:
        left = max(game.allowed_rolls() - game.rolls, 0)
        if left and game.limit is None:
            bits.append(t("status-rolls-left-first", left=left))
        elif left:
            bits.append(t("status-rolls-left", left=left, limit=game.limit))
    if meta.deadline is not None:
        bits.append(f"⏱ <t:{int(meta.deadline)}:R>")
    return " · ".join(bits)


def results(game: Game, t: Talk) -> str:
    """The open rolls standing in this round, lowest first, so the next roller knows what
    to beat."""
    if game.bluffing or not game.results:
        return ""
    words = Words.of(game, t)
    ranked = sorted(game.results.items(), key=lambda kv: RANK[kv[1]])
    return ", ".join(f"{who(p, t)} {words.roll(r)}" for p, r in ranked)


#: Marks that keep a player's lives and drinks apart on the scores line ("❤️ 2 🍺 1 sip"):
#: a bare number next to an amount read as one ("❤️ 2 1 sip").
LIVES_MARK, DRINKS_MARK, POINTS_MARK = "❤️", "🍺", "🎯"


def scores(game: Game, t: Talk) -> str:
    """Lives left (and drinks taken) per seated player, one line; nothing while everyone
    still stands where they started."""
    if all(not game.players[p].totals for p in game.seats):
        lives = {game.players[p].lives for p in game.seats}
        if len(lives) == 1:
            (each,) = lives
            return t("scores-each", lives=each) if each is not None else ""
    parts = []
    for player in game.seats:
        state = game.players[player]
        bits = []
        if state.lives is not None:
            bits.append(f"{LIVES_MARK} {state.lives}")
        taken = drinks(state.totals, t)
        if taken:
            mark = POINTS_MARK if game.options.units == "points" else DRINKS_MARK
            bits.append(f"{mark} {taken}")
        if bits:  # a drinking game names only those who drank
            parts.append(f"{who(player, t)} {' '.join(bits)}")
    return " · ".join(parts)


def names_of(table: Table) -> dict[str, str]:
    return {p: table.meta.names.get(p, p) for p in table.game.players}


def move_button(
    table: Table, move: Move, t: Talk, label: str | None = None, row: int = 0
) -> Button:
    key, style = BUTTONS[move.act]
    return Button(
        clip(label or t(key), LABEL_LIMIT),
        ids.move_id(table.game_id, table.game.move_no, move),
        style,
        row,
    )


def tool_button(table: Table, tool: str, t: Talk, arg: str = "", row: int = 1) -> Button:
    key, style = TOOLS[tool]
    return Button(t(key), ids.tool_id(table.game_id, table.game.move_no, tool, arg), style, row)


def menus(table: Table, moves: Sequence[Move], acts: Iterable[Act], t: Talk) -> list[Menu]:
    """Menus for the moves that take a value or a target; claims from the lowest valid one
    up, so the usual claim just above the standing one is on top, not 20 entries down."""
    game, words = table.game, Words.of(table.game, t)
    names = names_of(table)
    out = []
    for act in acts:
        offered = [m for m in moves if m.act is act]
        if not offered:
            continue
        if act in (Act.CLAIM, Act.PASS):
            options = [(claim_label(words, m), m.encode()) for m in offered]
        else:
            options = [
                (clip(names.get(m.to or "", m.to or ""), OPTION_LIMIT), m.encode()) for m in offered
            ]
        out.append(
            Menu(
                ids.menu_id(table.game_id, game.move_no, act),
                t(MENUS[act]),
                tuple(options[:MENU_OPTIONS]),
            )
        )
    return out


def claim_label(words: Words, move: Move) -> str:
    assert move.roll is not None
    said = words.roll(move.roll)
    digits = f"{move.roll[0]}{move.roll[1]}"
    return said if said == digits else f"{said} ({digits})"


def cup_button(table: Table, t: Talk, lifted: Commitment | None = None, row: int = 1) -> Button:
    """The one Cup button: privately, your dice (if you saw them), the live cup's seal, and
    the cup lifted on this message with its salt: one place for every cup tool."""
    seals = [c.digest[:SEAL_SHOWN] if c else "" for c in (table.meta.commit, lifted)]
    arg = SEAL_JOIN.join(seals).rstrip(SEAL_JOIN)
    return tool_button(table, ids.CHECK_CUP, t, arg, row)


def move_components(table: Table, t: Talk, lifted: Commitment | None = None) -> list[Component]:
    """The public buttons of the move that is due: the mover's moves on the first row,
    TAP (for everyone else) and the Cup on the second, menus below. ``lifted`` is a cup
    lifted on this message: the Cup button answers for it too."""
    game = table.game
    mover = game.to_move
    if game.phase != "playing" or mover is None:
        return []
    # A computer's turn shows no buttons of its own: nobody else could use them.
    moves = [] if mover in game.computers else game.legal_actions(mover)
    buttons: list[Component] = []
    for move in moves:
        if move.act not in BUTTONS:
            continue
        if move.act is Act.ACCEPT and not game.can_pass_after_accept():
            continue  # accepting would only lead to a roll: the Roll button does both
        label = None
        if game.bluffing and game.stage == "answer" and move.act in ANSWER_LABELS:
            label = t(ANSWER_LABELS[move.act])
        elif move.act is Act.KEEP:
            label = t("button-keep-die", die=move.die)
        elif move.act is Act.ENDROUND:
            label = Words.of(game, t).ending("button")
        buttons.append(move_button(table, move, t, label))
    if game.stuck:
        buttons.append(move_button(table, Move(Act.TAP), t, row=1))
    if game.bluffing and (table.meta.commit is not None or lifted is not None):
        buttons.append(cup_button(table, t, lifted))
    acts = (Act.CLAIM, Act.PASS, Act.HANDOUT, Act.KNIGHT)
    return [*buttons, *menus(table, moves, acts, t)]


# --- public messages (in the table's language) -------------------------------------------


def turn(
    table: Table, lines: Sequence[str], *, ping: bool, lifted: Commitment | None = None
) -> Reply:
    """The live turn message: what happened since the turn began, whose move it is (a
    ping only when the turn has just passed to them), and the state for that move."""
    game, t = table.game, table_talk(table)
    body = []
    round_line = t("round-started", round=game.round_no)
    for line in lines:
        body.append(line)
        if line == round_line:
            body.append(scores(game, t))
    extra = results(game, t)
    if extra:
        body.append(t("so-far", results=extra))
    body.append(prompt(game, t))
    state = status(table, t)
    if state:
        body.append(state)
    content = clip("\n".join(line for line in body if line), CONTENT_LIMIT)
    mover = game.to_move
    return Reply(
        content,
        None,
        tuple(move_components(table, t, lifted)),
        ping=(mover,) if ping and mover else (),
    )


def lobby(table: Table) -> Reply:
    """The lobby, edited in place as people join; it names the players a rematch invited
    until they sit down, and pings them (their tap on Join is the move asked of them);
    edits ping nobody, so only the first message does."""
    game, t = table.game, table_talk(table)
    o = game.options
    seats = ", ".join(who(p, t) for p in game.seats)
    rules = [amount(o.lives, "life", t) if o.lives else t("lobby-no-lives"), t(f"units-{o.units}")]
    rules.append(t("lobby-timer", seconds=o.turn_timer) if o.turn_timer else t("lobby-no-timer"))
    description = t(
        "lobby-body",
        host=who(game.host, t),
        seats=seats,
        seated=len(game.seats),
        most=o.max_players,
        rules=" · ".join(rules),
    )
    characters = [
        f"{who(p, t)} {t(f'persona-{persona.key}')}."
        for p in game.computers
        if (persona := persona_of(p)) is not None
    ]
    if characters:
        description += "\n" + "\n".join(characters)
    title = t("lobby-title", preset=ruleset_name(game.preset, t))
    embed = Embed(title=title, description=description)
    waiting = [p for p in table.meta.invited if p not in game.seats]
    content = ""
    if waiting:
        content = t("lobby-rematch", players=" ".join(who(p, t) for p in waiting))
    buttons = [move_button(table, Move(act), t) for act in (Act.JOIN, Act.LEAVE, Act.START)]
    if len(game.seats) < o.max_players:
        seat = next_id(next_persona(game.computers), list(game.players))
        buttons.append(move_button(table, Move(Act.ADD_COMPUTER, to=seat), t))
    return Reply(content, embed, tuple(buttons), ping=tuple(waiting))


def lobby_note(outcome: Outcome, viewer: str, t: Talk) -> Reply:
    """The private word for a lobby change made by slash command (the lobby message
    itself is edited, so the channel keeps one)."""
    game, move = outcome.table.game, outcome.move
    if move is not None and move.act is Act.ADD_COMPUTER:
        return Reply(t("lobby-computer-in", p=who(move.to, t)), private=True)
    if move is not None and move.act is Act.REMOVE_COMPUTER:
        return Reply(t("lobby-computer-out", p=who(move.to, t)), private=True)
    inside = viewer in game.seats or viewer in game.waiting
    return Reply(t("lobby-you-in" if inside else "lobby-you-out"), private=True)


def standing(game: Game, t: Talk | None = None, result: GameResult | None = None) -> list[str]:
    """Every player who took part, best first (`result.places`, the order the ratings
    read too; a person the timer played for last, unnumbered, as not counted), with what
    decides the game in one column: lives left where lives count, otherwise what they
    drank. Tied players share a place: "1." and "2." would name a
    loser. The winners of a game that counts are marked, a shared first place as much as
    a lone one; a rated game adds each player's rating and its change (README, Ratings)."""
    t = t or talk()
    changes = result.changes if result is not None else {}
    lives = game.options.lives is not None
    lines = []
    order = places(game) if counts(game) else game.final_places()
    won = winners(game, order)
    rows: list[tuple[str, int | None]] = list(order)
    if counts(game):  # a person the timer played for is listed, not counted
        rows += [(p, None) for p, _ in game.final_places() if not takes_part(game, p)]
    for player, place in rows:
        state = game.players[player]
        bits = []
        if lives:
            bits.append(
                t("standing-out") if not state.lives else t("standing-lives", lives=state.lives)
            )
        taken = drinks(state.totals, t)
        if taken or not lives:
            bits.append(taken or amount(0, game.options.units.removesuffix("s"), t))
        if game.left_early(player):
            bits.append(t("standing-left"))
        if place is None:  # the timer took their turns, or none came (docs/league.md)
            bits.append(t("standing-idle" if state.timed else "standing-unplayed"))
        if player in changes:
            bits.append(league.standing_rating(changes[player], t))
        row = f"{'–' if place is None else f'{place}.'} {who(player, t)} · {' · '.join(bits)}"
        lines.append(t("standing-winner", row=row) if player in won else row)
    return lines


def final(
    table: Table,
    lines: Sequence[str],
    lifted: Commitment | None,
    result: GameResult | None = None,
    replay: str | None = None,
) -> Reply:
    """The end of a game: how it ended, the final standing (with the rating changes and
    the achievements earned, if the game was rated), the link to its ``replay`` if the
    server shows its games, and a Rematch button. Achievements sit in the embed, so the
    players they name are never pinged."""
    game, t = table.game, table_talk(table)
    rows = standing(game, t, result)
    footer = ""
    if result is not None:
        rows += league.earned_lines(result.earned, t)
        if result.rests:
            footer = t("rating-rests", n=PAIR_GAMES)
        else:
            provisional = any(c.provisional for c in result.changes.values())
            footer = league.legend(result.family, provisional, t)
    if replay is not None:
        rows.append(t("replay-link", url=replay))
    embed = Embed(title=t("final-title"), description="\n".join(rows), footer=footer)
    buttons = [tool_button(table, ids.REMATCH, t, row=0)]
    if lifted is not None:
        buttons.append(cup_button(table, t, lifted, row=0))
    return Reply(clip("\n".join(lines), CONTENT_LIMIT), embed, tuple(buttons))


def combine(earlier: Sequence[str], new: Sequence[str]) -> list[str]:
    """The turn message's lines: a fact that happens twice in a turn (the same roll after
    an Elbow) is marked, so no line reads as said twice."""
    lines = list(earlier)
    for line in new:
        lines.append(line if line not in lines else f"{line} (×2)")
    return lines


def after_move(
    outcome: Outcome, earlier: Sequence[str], *, ping: bool, shown_lift: Commitment | None = None
) -> Reply:
    """The public message a move leaves: the lobby, the live turn message, or the end.

    ``shown_lift`` is a cup lifted by an earlier move whose reveal this message still
    shows (it is updated in place): it stays checkable from here.
    """
    table = outcome.table
    game, t = table.game, table_talk(table)
    lines = combine(earlier[-KEEP_LINES:], story(game, outcome.events, t))
    if game.phase == "lobby":
        return lobby(table)
    if game.phase == "over":
        if game.round_no == 0:  # a lobby closed before it started: nobody to rank
            return Reply(clip("\n".join(lines), CONTENT_LIMIT))
        return final(table, lines, outcome.lifted, outcome.result, outcome.replay)
    return turn(table, lines, ping=ping, lifted=outcome.lifted or shown_lift)


def retired(
    reply_components: Sequence[Component], lifted: Commitment | None
) -> tuple[Component, ...]:
    """What an old turn message keeps once the game moved on: the Cup button if it
    answers for a cup that has been lifted (it can still be checked), nothing that could
    act."""
    if lifted is None:
        return ()
    seal = lifted.digest[:SEAL_SHOWN]

    def checks_lifted(c: Component) -> bool:
        parsed = ids.read_tool(c.custom_id.split(":", 1)[1]) if isinstance(c, Button) else None
        return parsed is not None and parsed[2] == ids.CHECK_CUP and seal in cup_seals(parsed[3])

    return tuple(c for c in reply_components if checks_lifted(c))


def cup_seals(arg: str) -> list[str]:
    """The seals a Cup button's id names (an older button names one)."""
    return [s for s in arg.split(SEAL_JOIN) if s]


REMINDER = "⏰ "


def is_reminder(content: str) -> bool:
    """Whether a message of this bot is a turn-timer reminder (they are deleted once the
    turn moves on, also across a restart). Every language's reminder starts the same."""
    return content.startswith(REMINDER + "<@") and "<t:" in content


def reminder(table: Table) -> Reply:
    """Half the turn is gone: a short nudge that pings the player to move."""
    t = table_talk(table)
    mover = table.game.to_move
    deadline = table.meta.deadline
    when = f"<t:{int(deadline)}:R>" if deadline is not None else ""
    text = REMINDER + t("reminder", p=who(mover, t), when=when)
    return Reply(text, ping=(mover,) if mover else ())


# --- private replies (in the reader's language) ------------------------------------------


def private_after(outcome: Outcome, t: Talk) -> Reply | None:
    """What only the mover reads after their move: their dice with the Claim menu, or the
    choice they owe (a hand-out, the next Knight). ``None`` when nothing is private."""
    table, player = outcome.table, outcome.player
    game = table.game
    events = outcome.events
    dice = next((e for e in events if isinstance(e, Dice) and e.to == player), None)
    rolled_blind = any(isinstance(e, Rolled) and e.player == player and e.blind for e in events)
    if dice is not None or (rolled_blind and game.to_move == player):
        return your_cup(table, player, t)
    choice = game.owes_choice(player)
    if choice is not None:
        moves = game.legal_actions(player)
        return Reply(prompt(game, t), None, tuple(menus(table, moves, (choice,), t)), private=True)
    return None


def your_cup(table: Table, player: str, t: Talk, seal: str = "") -> Reply:
    """The roller's own view of the cup: the dice (unless rolled blind), the cup's
    ``seal`` when asked from the Cup button, and, while it is theirs to claim, the Claim
    menu and Fold."""
    game = table.game
    words = Words.of(game, t)
    if game.sees_cup(player):
        assert game.cup is not None
        text = t("your-dice", dice=words.dice(game.cup))
    elif holds_blind_roll(game, player):
        text = t("your-blind-roll")
    else:
        return refusal(t("not-seen-cup"))
    if seal:
        text += "\n" + seal
    components: list[Component] = []
    if player == game.to_move and game.stage == "rolled":
        moves = game.legal_actions(player)
        components += menus(table, moves, (Act.CLAIM,), t)
        if Move(Act.FOLD) in moves:
            components.append(move_button(table, Move(Act.FOLD), t))
        text += "\n" + t("claim-below")
    return Reply(text, None, tuple(components), private=True)


def holds_blind_roll(game: Game, player: str) -> bool:
    """Whether the live cup is ``player``'s own blind roll, still to be claimed. Not the
    answerer of a claim: they are to move too, but the cup is the claimer's."""
    return (
        game.bluffing
        and game.cup is not None
        and game.stage == "rolled"
        and (player == game.to_move)
    )


def cup_holder(game: Game) -> str | None:
    """Whose cup the live one is: the roller's until they claim, then the claimer's (who
    rolled it or passed it on). None when that claimer has left the table."""
    return game.to_move if game.stage in ("rolled", "reroll") else game.claimer


def cup_answer(table: Table, viewer: str, seals: Sequence[str], t: Talk) -> Reply | None:
    """The Cup button's private answer: for the live cup, your dice if you have seen them
    (with the Claim menu when it is your claim) and its full seal; for the cup lifted on
    that message, its dice and salt to check. ``None`` when no cup of this table matches
    (the button is from a finished game: storage has its cup)."""
    meta, game = table.meta, table.game

    def named(commit: Commitment | None) -> bool:
        return commit is not None and any(commit.digest.startswith(s) for s in seals if s)

    parts: list[str] = []
    components: tuple[Component, ...] = ()
    if named(meta.commit):
        assert meta.commit is not None
        if game.sees_cup(viewer) or holds_blind_roll(game, viewer):
            mine = your_cup(table, viewer, t, sealed_cup(meta.commit, t).content)
            parts.append(mine.content)
            components = mine.components
        else:
            holder = cup_holder(game)
            theirs = holder if holder != viewer else None
            parts.append(sealed_cup(meta.commit, t, theirs).content)
    if named(meta.lifted) and meta.lifted is not meta.commit:
        assert meta.lifted is not None
        parts.append(lifted_cup(meta.lifted, Words.of(game, t)).content)
    if not parts:
        return None
    return Reply(clip("\n\n".join(parts), CONTENT_LIMIT), None, components, private=True)


def sealed_cup(commit: Commitment, t: Talk, holder: str | None = None) -> Reply:
    """The seal; for a player not holding the cup, whose cup it is (their own is just
    "the cup")."""
    if holder is None:
        return Reply(t("cup-sealed", digest=commit.digest), private=True)
    return Reply(t("cup-sealed-of", p=who(holder, t), digest=commit.digest), private=True)


def lifted_cup(commit: Commitment, words: Words) -> Reply:
    text = message(commit.dice, commit.salt)
    return Reply(
        words.talk(
            "cup-lifted",
            dice=words.dice(commit.dice),
            digest=commit.digest,
            command=f"printf '{text}' | sha256sum",
        ),
        private=True,
    )


def table_view(table: Table, viewer: str, t: Talk) -> Reply:
    """/table: everything public about the table, for the one who asked."""
    game = table.game
    fields: list[tuple[str, str]] = []
    if game.phase == "playing":
        fields.append((t("field-move"), prompt(game, t)))
        if game.bluffing and game.standing is not None:
            fields.append((t("field-claim"), Words.of(game, t).roll(game.standing)))
        extra = results(game, t)
        if extra:
            fields.append((t("field-round"), extra))
        if game.knight:
            fields.append((t("field-knight"), who(game.knight, t)))
        if not game.bluffing and game.options.loss == "pot":
            fields.append((t("field-pot"), str(game.pot)))
        state = status(table, t)
        if state:
            fields.append((t("field-now"), state))
    title = t(
        "table-title-lobby" if game.phase == "lobby" else "table-title",
        preset=ruleset_name(game.preset, t),
        round=game.round_no,
    )
    embed = Embed(title=title, description=scores(game, t) or "—", fields=tuple(fields))
    return Reply("", embed, private=True)


#: Refusal params that hold roll codes; another language words them in the table's style.
ROLL_PARAMS = frozenset({"claim", "standing", "roll", "valid"})


def error_text(err: GameError, t: Talk, words: Words | None = None) -> str:
    """A refusal in the reader's language, English like the others: an engine refusal from
    its ``error-<key>`` message, a refusal of the bot's own (a button of an earlier game,
    no game in the channel) from its key (README, Languages)."""
    if t.has(err.key):
        return t(err.key)
    key = f"error-{err.key}"
    w = words or Words.of_preset("mexican", t)
    args: dict[str, object] = {}
    for name, value in err.params.items():
        if name.endswith("_said"):
            continue
        if name in ROLL_PARAMS:
            codes = value if isinstance(value, list) else [value]
            value = listing([w.roll(str(c)) for c in codes], t, "or")
        elif name == "spellings" and isinstance(value, dict):
            # The engine's examples are English; the reader is shown their own words.
            examples = spellings_for(t.language).values()
            value = "; ".join(listing([str(x) for x in v], t, "or") for v in examples)
        elif isinstance(value, list):
            value = listing([str(v) for v in value], t)
        elif name == "player":
            value = who(str(value), t)
        elif name == "preset":
            value = ruleset_name(str(value), t)
        args[name] = value
    return t(key, **args)


def refusal(text: str) -> Reply:
    """A private answer that changed nothing. Ids become mentions (an ephemeral message
    pings nobody); any user text in it has been cut before it got here."""
    return Reply(clip(mention_ids(text), CONTENT_LIMIT), private=True)
