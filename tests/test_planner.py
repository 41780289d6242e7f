"""What each move costs in Discord calls, read off the planner (bot/present/planner.py): for every
origin and kind of move, the operations it plans. The table is the review: a change that
makes a move cost more calls shows here first (README, How the table talks)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from bot.ai.personas import PERSONAS
from bot.engine import Act, Dice, Game, Move, Rolled, RoundOver
from bot.game.tables import Outcome, Table
from bot.present import planner
from bot.present import screens as present
from bot.present.i18n import talk
from bot.present.message import Reply
from bot.present.planner import (
    EMPTY,
    Answer,
    ChannelState,
    Delete,
    Edit,
    Operation,
    Origin,
    Post,
    Retire,
)

LIVE = 100  # the live turn message's id
STRAY = 90  # an older public message that still had buttons
REMINDER = 95
COMPUTER = next(iter(PERSONAS))
PEOPLE = ("1", "2")


def outcome_where(
    preset: str,
    wanted: Callable[[Outcome], bool],
    *,
    computer: bool = False,
    acts: frozenset[Act] | None = None,
    options: dict[str, object] | None = None,
) -> Outcome:
    """The first move of seeded random games (people "1" and "2", maybe a computer) whose
    outcome is ``wanted``: a real move, shown as the table service would hand it over."""
    for seed in range(200):
        rng = random.Random(seed)
        game = Game.create(preset, PEOPLE[0], options)
        game.join(PEOPLE[1])
        if computer:
            game.add_computer(PEOPLE[0], COMPUTER)
        game.start(PEOPLE[0], rng)
        for _ in range(300):
            if game.phase != "playing":
                break
            movers = [p for p in game.seats if game.legal_actions(p)]
            player = rng.choice(movers)
            legal = [m for m in game.legal_actions(player) if m.act is not Act.END]
            if acts is not None and any(m.act in acts for m in legal):
                legal = [m for m in legal if m.act in acts]
            if not legal:
                break
            move = rng.choice(legal)
            before = game.to_move
            events = game.apply(player, move, rng)
            table = Table(1, 1, 1, game)
            table.meta.message_id = LIVE
            outcome = Outcome(table, player, move, events, previous_mover=before)
            if wanted(outcome):
                return outcome
    raise AssertionError("no such move in 200 games")


def mover(outcome: Outcome) -> str | None:
    game = outcome.table.game
    return game.to_move if game.phase == "playing" else None


def round_over(outcome: Outcome) -> bool:
    return any(isinstance(e, RoundOver) for e in outcome.events)


def private_dice(outcome: Outcome) -> bool:
    return any(isinstance(e, Dice) and e.to == outcome.player for e in outcome.events)


def lobby_join() -> Outcome:
    game = Game.create("mexican", PEOPLE[0])
    events = game.join(PEOPLE[1])
    table = Table(1, 1, 1, game)
    table.meta.message_id = LIVE
    return Outcome(table, PEOPLE[1], Move(Act.JOIN), events)


def new_lobby() -> Outcome:
    table = Table(1, 1, 1, Game.create("mexican", PEOPLE[0]))
    return Outcome(table, PEOPLE[0], None, [])


#: Each kind of move, found in real games. Open rolls (mexen) show no private dice.
KINDS: dict[str, Callable[[], Outcome]] = {
    "keeps the turn": lambda: outcome_where(
        "mexen",
        lambda o: (
            mover(o) == o.player == o.previous_mover
            and not round_over(o)
            and o.table.game.owes_choice(o.player) is None
        ),
        acts=frozenset({Act.ROLL}),
    ),
    "passes to a person": lambda: outcome_where(
        "mexen", lambda o: mover(o) not in (None, o.player, COMPUTER) and not round_over(o)
    ),
    "passes to a computer": lambda: outcome_where(
        "mexen", lambda o: mover(o) == COMPUTER != o.player and not round_over(o), computer=True
    ),
    "ends a round": lambda: outcome_where(
        "mexen",
        lambda o: (
            round_over(o) and o.table.game.phase == "playing" and mover(o) in (o.player, COMPUTER)
        ),
    ),
    "ends the game": lambda: outcome_where(
        "mexen", lambda o: o.table.game.phase == "over", options={"lives": 1}
    ),
    "private dice": lambda: outcome_where(
        "mexican", lambda o: private_dice(o) and mover(o) == o.player, acts=frozenset({Act.ROLL})
    ),
    "blind roll": lambda: outcome_where(
        "mexican",
        lambda o: mover(o) == o.player and any(isinstance(e, Rolled) and e.blind for e in o.events),
        acts=frozenset({Act.ROLL_BLIND}),
        options={"blind": True},
    ),
    "lobby change": lobby_join,
    "new lobby": new_lobby,
}


def shape(ops: tuple[Operation, ...]) -> list[str]:
    """The operations in short: what each one does to which message."""
    out = []
    for op in ops:
        match op:
            case Answer(reply=reply, edit=edit, live=live):
                kind = "edit" if edit else "private" if reply.private else "public"
                out.append(f"answer:{kind}" + (":live" if live else ""))
            case Post(replaces=replaces, live=live, reminder=reminder):
                name = "post:reminder" if reminder else "post:live" if live else "post"
                out.append(name + (f"+retire:{replaces.message_id}" if replaces else ""))
            case Edit(message_id=message_id, if_gone=if_gone):
                out.append(f"edit:{message_id}" + ("|post" if if_gone else ""))
            case Retire(message_id=message_id):
                out.append(f"retire:{message_id}")
            case Delete(message_id=message_id):
                out.append(f"delete:{message_id}")
    return out


def calls(ops: tuple[Operation, ...]) -> int:
    """Discord calls when all goes well: a live post also retires the message it
    replaces; an edit falls back to a post only if its message is gone."""
    return sum(2 if isinstance(op, Post) and op.replaces else 1 for op in ops)


def planned(kind: str, origin: Origin, state: ChannelState = EMPTY) -> planner.Plan:
    outcome = KINDS[kind]()
    stray = STRAY if origin is Origin.CLICK_STRAY else None
    return planner.plan(outcome, origin, state, reader=talk(), stray=stray)


CLICK, SLASH, STRAY_, MENU = Origin.CLICK_LIVE, Origin.SLASH, Origin.CLICK_STRAY, Origin.CLICK_MENU
TIMER, COMPUTER_, FALLBACK = Origin.TIMER, Origin.COMPUTER, Origin.FALLBACK

#: (kind of move, origin) -> the operations planned, with the live message known.
TABLE: list[tuple[str, Origin, list[str]]] = [
    # A tap on the live message that pings nobody: one call, the response edits it.
    ("keeps the turn", CLICK, ["answer:edit:live"]),
    # A slash command: the answer is the new live message, the old one is retired.
    ("keeps the turn", SLASH, ["answer:public:live", f"retire:{LIVE}"]),
    # A leftover message clicked: retired too.
    ("keeps the turn", STRAY_, ["answer:public:live", f"retire:{LIVE}", f"retire:{STRAY}"]),
    # A choice in the private menu: the menu becomes what it did, the live message edited.
    ("keeps the turn", MENU, ["answer:edit", f"edit:{LIVE}|post"]),
    ("keeps the turn", TIMER, [f"edit:{LIVE}|post"]),
    ("keeps the turn", FALLBACK, [f"post:live+retire:{LIVE}"]),
    # The turn passed to a person, who must be pinged: a new message, the old retired.
    ("passes to a person", CLICK, ["answer:public:live", f"retire:{LIVE}"]),
    ("passes to a person", SLASH, ["answer:public:live", f"retire:{LIVE}"]),
    ("passes to a person", MENU, ["answer:public:live", f"retire:{LIVE}"]),
    ("passes to a person", TIMER, [f"post:live+retire:{LIVE}"]),
    ("passes to a person", COMPUTER_, [f"post:live+retire:{LIVE}"]),
    ("passes to a person", FALLBACK, [f"post:live+retire:{LIVE}"]),
    # A computer needs no ping: the live message is edited in place.
    ("passes to a computer", CLICK, ["answer:edit:live"]),
    ("passes to a computer", SLASH, ["answer:public:live", f"retire:{LIVE}"]),
    ("ends a round", CLICK, ["answer:edit:live"]),
    ("ends a round", COMPUTER_, [f"edit:{LIVE}|post"]),
    # The end of the game: the message shows it, and nothing is live any more.
    ("ends the game", CLICK, ["answer:edit"]),
    ("ends the game", SLASH, ["answer:public", f"retire:{LIVE}"]),
    ("ends the game", TIMER, [f"edit:{LIVE}|post"]),
    ("ends the game", FALLBACK, [f"post+retire:{LIVE}"]),
    # Dice only the mover may see: the private answer, and the live message edited.
    ("private dice", CLICK, ["answer:private", f"edit:{LIVE}|post"]),
    ("private dice", SLASH, ["answer:private", f"edit:{LIVE}|post"]),
    # A blind roll has nothing private to say to a click on the live message.
    ("blind roll", CLICK, ["answer:edit:live"]),
    ("blind roll", SLASH, ["answer:private", f"edit:{LIVE}|post"]),
    ("lobby change", CLICK, ["answer:edit"]),
    ("lobby change", SLASH, ["answer:private", f"edit:{LIVE}|post"]),
    ("lobby change", FALLBACK, [f"post:live+retire:{LIVE}"]),
    ("new lobby", SLASH, ["answer:public:live"]),
    ("new lobby", FALLBACK, ["post:live"]),
]


@pytest.mark.parametrize(
    ("kind", "origin", "expected"), TABLE, ids=[f"{k}-{o.value}" for k, o, _ in TABLE]
)
def test_operations_per_origin_and_kind(kind: str, origin: Origin, expected: list[str]) -> None:
    assert shape(planned(kind, origin).operations) == expected


#: The most calls any planned move may cost, with the live message known (the README's
#: budget: one for a tap that pings nobody, two for a new message or a private answer,
#: three for a click on a leftover message).
BUDGET = {CLICK: 2, SLASH: 2, MENU: 2, STRAY_: 3, TIMER: 2, COMPUTER_: 2, FALLBACK: 2}


@pytest.mark.parametrize(
    ("kind", "origin", "expected"), TABLE, ids=[f"{k}-{o.value}" for k, o, _ in TABLE]
)
def test_no_move_costs_more_than_its_budget(kind: str, origin: Origin, expected: list[str]) -> None:
    assert calls(planned(kind, origin).operations) <= BUDGET[origin]


def test_a_keeping_tap_on_the_live_message_is_one_call() -> None:
    assert calls(planned("keeps the turn", CLICK).operations) == 1


def test_a_reminder_is_deleted_first_and_forgotten() -> None:
    plan = planned("keeps the turn", CLICK, ChannelState(reminder=REMINDER))
    assert shape(plan.operations) == [f"delete:{REMINDER}", "answer:edit:live"]
    assert plan.state.reminder is None and plan.on_failure.reminder is None


def test_the_turn_story_gathers_in_place_and_starts_afresh_on_a_new_message() -> None:
    earlier = ChannelState(story=("an earlier line",))
    kept = planned("keeps the turn", CLICK, earlier)
    assert kept.state.story[0] == "an earlier line" and len(kept.state.story) > 1
    passed = planned("passes to a person", CLICK, earlier)
    assert "an earlier line" not in passed.state.story


def test_a_finished_game_leaves_nothing_behind() -> None:
    state = ChannelState(story=("x",), live=Reply("old"), seen=3)
    assert planned("ends the game", CLICK, state).state == EMPTY


def test_a_retired_message_keeps_only_what_the_old_live_reply_allows() -> None:
    outcome = KINDS["passes to a person"]()
    live = present.after_move(outcome, [], ping=False)
    plan = planner.plan(outcome, SLASH, ChannelState(live=live), reader=talk())
    (retire,) = [op for op in plan.operations if isinstance(op, Retire)]
    assert retire.keep == present.retired(live.components, outcome.table.meta.lifted)


def test_a_table_with_no_live_message_posts_instead_of_editing() -> None:
    outcome = KINDS["keeps the turn"]()
    outcome.table.meta.message_id = None
    plan = planner.plan(outcome, TIMER, EMPTY)
    assert shape(plan.operations) == ["post:live"]


def test_the_restart_posts_the_table_again() -> None:
    outcome = KINDS["keeps the turn"]()
    outcome.table.meta.message_id = None
    plan = planner.restarted(outcome.table, EMPTY)
    assert shape(plan.operations) == ["post:live"]


def test_a_reminder_pings_only_a_player_who_has_not_looked() -> None:
    table = KINDS["keeps the turn"]().table
    assert shape(planner.reminder(table, EMPTY).operations) == ["post:reminder"]
    seen = planner.looked(EMPTY, table, table.game.to_move or "")
    assert planner.reminder(table, seen).operations == ()


def test_what_the_calls_produce_is_recorded_in_the_state() -> None:
    reply = Reply("shown")
    assert planner.shown(EMPTY, reply).live == reply
    assert planner.reminded(EMPTY, 7).reminder == 7


def test_a_plan_carries_the_channel_after_it_and_what_discord_produced_is_recorded() -> None:
    """The post-state shows the reply the plan leaves on the live message; until Discord
    has taken it (and if it never does) the live message shows what it showed."""
    old = Reply("old")
    plan = planned("keeps the turn", CLICK, ChannelState(live=old))
    (answer,) = [op for op in plan.operations if isinstance(op, Answer)]
    assert plan.state.live == answer.reply and plan.pending.live == old
    assert planner.recorded(plan.pending, plan, planner.Produced(shown=True)) == plan.state
    assert planner.recorded(plan.pending, plan, planner.Produced()) == plan.pending
    reminder = planner.reminder(KINDS["keeps the turn"]().table, EMPTY)
    assert planner.recorded(EMPTY, reminder, planner.Produced(reminder=7)).reminder == 7


@pytest.mark.parametrize(
    ("clicked", "private", "components", "expected"),
    [
        (None, False, False, (SLASH, None)),
        (LIVE, False, True, (CLICK, None)),
        (5, True, True, (MENU, None)),
        (STRAY, False, True, (STRAY_, STRAY)),
        (STRAY, False, False, (SLASH, None)),
    ],
)
def test_where_an_interaction_came_from(
    clicked: int | None, private: bool, components: bool, expected: tuple[Origin, int | None]
) -> None:
    assert planner.origin_of(clicked, private, components, LIVE) == expected
