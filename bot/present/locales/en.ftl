# The bot's English. Every message the bot sends is built from this catalog; nl.ftl and
# de.ftl hold the same messages with the same variables (README, Languages).
# Variables: $p, $by, $claimer... are players, already shown as mentions or names;
# $roll, $claim, $cup are rolls already in the table's words; $n, $hits... are numbers.

## Rolls in words (mexican and dollar speak in words; the Dutch presets in numbers)

roll-31 = thirty-one
roll-32 = thirty-two
roll-41 = forty-one
roll-42 = forty-two
roll-43 = forty-three
roll-51 = fifty-one
roll-52 = fifty-two
roll-53 = fifty-three
roll-54 = fifty-four
roll-61 = sixty-one
roll-62 = sixty-two
roll-63 = sixty-three
roll-64 = sixty-four
roll-65 = sixty-five
roll-11 = double one
roll-22 = double two
roll-33 = double three
roll-44 = double four
roll-55 = double five
roll-66 = double six
top-mexican = Mexican
top-mex = Mex
top-mexico = Mexico
three-one-social = Social
three-one-handout = 3-1, hand out a sip
three-one-elbow = Elbow

## Amounts

amount = { $unit ->
    [sip] { $n ->
        [one] { $n } sip
       *[other] { $n } sips
    }
    [shot] { $n ->
        [one] { $n } shot
       *[other] { $n } shots
    }
    [chug] { $n ->
        [one] { $n } chug
       *[other] { $n } chugs
    }
    [life] { $n ->
        [one] { $n } life
       *[other] { $n } lives
    }
    [point] { $n ->
        [one] { $n } point
       *[other] { $n } points
    }
   *[game] { $n ->
        [one] { $n } game
       *[other] { $n } games
    }
}
# A drink one player hands another (penalty-handed): a sip in words, as the table says it.
amount-handed = { $unit ->
    [sip] { $n ->
        [one] a sip
       *[other] { $n } sips
    }
   *[other] { amount }
}
# A capped loss of lives: what was lost, and how many were due (penalty-lives).
amount-last-lives = { $n ->
    [one] their last life ({ $due } due)
   *[other] their last { $n } lives ({ $due } due)
}
# A drink as the penalty line says it after "takes" (penalty-drunk, penalty-both). Other
# languages may need another case there, or the verb itself (German "muss exen").
amount-drunk = { $unit ->
    [sip] { $n ->
        [one] { $n } sip
       *[other] { $n } sips
    }
    [shot] { $n ->
        [one] { $n } shot
       *[other] { $n } shots
    }
    [chug] { $n ->
        [one] { $n } chug
       *[other] { $n } chugs
    }
   *[point] { $n ->
        [one] { $n } point
       *[other] { $n } points
    }
}
list-and = { $a } and { $b }
list-or = { $a } or { $b }
list-join = { $a }, { $b }
nobody = nobody
a-computer = a computer player

## How ending a round early is said: one name in every rule set

end-early-verb = ends the round early
end-early-choice = end the round early
end-early-button = End round early
end-early-cause = ended the round early

## Odds of a claim on a fresh roll

odds-every = every fresh roll makes { $roll }
odds-rare = a fresh roll makes that only { $hits } times in { $out }
odds-likely = a fresh roll makes that { $hits } times in { $out }, nearly always
odds-plain = a fresh roll makes that { $hits } times in { $out }

## Why a penalty was paid

cause-caught = caught bluffing { $claim } on { $cup }
cause-wrong-call = called a true { $claim }
cause-folded = folded against { $claim }
cause-social = Social
cause-timer = time ran out
cause-handed-out = handed out by { $by }
cause-knight-one-one = Knight, on a 1-1
cause-knight-double = Knight, on a double { $die }
cause-lowest = lowest roll ({ $roll })
cause-lowest-mexes = lowest roll ({ $roll }), { $mexes }× { $top }
cause-tied-left = last of the tied players
cause-tied-left-mexes = last of the tied players, { $mexes }× { $top }
cause-pot = the pot, lowest roll ({ $roll })
cause-pot-tied-left = the pot, last of the tied players

## What a move did: one line per event

joined = { $p } joined.
waiting = { $p } joins at the next round.
seated = { $p } sits down.
left = { $p } left.
left-queue = { $p } left the queue.
left-game = { $p } left the game.
left-timeouts = { $p } missed two turns and leaves the table.
out = { $p } is out.
out-no-lives = 💀 { $p } is out of lives.
out-left = { $p } left the game and is out.
out-timeouts = { $p } missed two turns and is out.
host = { $p } is the host now.
started = 🎲 Game on!
round-started = **Round { $round }**
rolled-blind = { $p } rolls blind under the cup: nobody saw the dice.
rolled-under-cup = { $p } rolls under the cup.
rolled-rolloff = { $p } rolls **{ $roll }** in the roll-off.
rolled-kept = { $p } keeps the { $die } and rolls **{ $roll }** (roll { $n }).
rolled-again = { $p } rolls **{ $roll }** (roll { $n }).
rolled = { $p } rolls **{ $roll }**.
social = { $p } rolled 3-1: **Social**! Everyone sips, and { $p } rolls again.
handout = { $p } rolled 3-1: a sip to hand out, then a free roll.
elbow = { $p } rolled 3-1: **Elbow**! The turn starts over.
claimed = { $p } claims **{ $claim }**.
passed = { $p } passes the cup on unseen, claiming **{ $claim }**.
accepted = { $p } accepts **{ $claim }**.
reveal-bluff = { $p } calls **bullshit** on { $claimer }'s **{ $claim }**: **{ $cup }** under the cup. Bluff caught! ({ $odds })
reveal-true = { $p } calls **bullshit** on { $claimer }'s **{ $claim }**: **{ $cup }** under the cup. It was true! ({ $odds })
penalty-handed = { $by } hands **{ $drunk }** to { $p }.
penalty-drunk = → { $p } takes **{ $drunk }**.
penalty-drunk-why = → { $p } takes **{ $drunk }**: { $why }.
penalty-lives = → { $p } loses **{ $lives }**.
penalty-lives-why = → { $p } loses **{ $lives }**: { $why }.
penalty-both = → { $p } takes **{ $drunk }** and loses **{ $lives }**.
penalty-both-why = → { $p } takes **{ $drunk }** and loses **{ $lives }**: { $why }.
round-void = Round { $round } is void: nobody pays.
knight-none = There is no Knight now.
knight = { $p } is the **Knight**.
over-unplayed = 🚫 No round was played: this game counts for nothing.
over-short = 🚫 Under { $n } rounds played: this game counts for nothing.
over-timer = 🚫 The timer played for the others: this game counts for nothing.
over-loser = 💀 { $p } hit zero lives and loses the game.
over-ended = 🏁 { $p } ended the game.
over-ended-lead = 🏁 { $p } ended the game in the lead: no winner.
over-empty = 🏁 Game over: too few players left.
folded = { $p } folds against **{ $roll }**.
stood = { $p } stands on **{ $roll }**.
ended-round = { $p } { $verb } on **{ $roll }**.
tapped = { $p } hits **TAP**: { $roller }'s 3-2 is locked in.
stuck = **STUCK!** { $p } has a 3-2: anyone else may TAP to lock it in.
pot = The pot is **{ $pot }**.
knight-choice = { $p } rolled 1-1 as Knight and names the next Knight.
limit = Roll limit this round: **{ $limit }**.
timeout = ⏰ { $p }'s time ran out.
rolloff = Tie for lowest: { $players } roll off.

## The turn message

so-far = So far: { $results }
scores-each = ❤️ { $lives } each
prompt-thinking = { $p } is thinking…
prompt-handout = { $p }, hand out your sip.
prompt-knight = { $p }, name the next Knight.
prompt-answer = { $p }: roll to accept, or call bullshit?
prompt-claim-seen = { $p }, claim (you may bluff).
prompt-claim = { $p }, claim.
prompt-accepted-pass = { $p }, roll, or pass the cup on unseen.
prompt-accepted = { $p }, roll.
prompt-reroll = { $p }, roll again.
prompt-roll-cup = { $p }, roll under the cup.
prompt-rolloff = { $p }, roll off.
prompt-your-roll = { $p }, your roll.
prompt-your-move = { $p }, your move.
prompt-choices = { $p }, { $choices }.
choice-roll = roll again
choice-keep = keep a die
choice-stand = stand
status-rolls-left-first = { $left ->
    [one] { $left } roll left (your count holds for everyone)
   *[other] { $left } rolls left (your count holds for everyone)
}
status-rolls-left = { $limit ->
    [one] { $left } of { $limit } roll left
   *[other] { $left } of { $limit } rolls left
}
reminder = { $p }, your move: time runs out { $when }.

## Buttons and menus

button-join = Join
button-leave = Leave
button-start = Start
button-roll = Roll
button-roll-blind = Roll blind
button-accept = Accept
button-bullshit = Bullshit!
button-fold = Fold
button-stand = Stand
button-keep = Keep
button-keep-die = Keep the { $die }
button-end-round = End round early
button-tap = TAP! (anyone else)
button-add-computer = Add computer
button-accept-roll = Accept & roll
button-accept-blind = Accept & roll blind
button-accept-pass = Accept & pass on
button-cup = Cup
button-rematch = Rematch
menu-claim = Claim…
menu-pass = Pass it on unseen, claiming…
menu-handout = Hand your sip to…
menu-knight = Name the next Knight…

## The lobby and the end of a game

lobby-title = 🎲 { $preset } · new table
lobby-body = Host: { $host }
    In: { $seats } ({ $seated }/{ $most })
    { $rules }
    Tap **Join** to play; the host taps **Start**.
lobby-no-lives = no lives
lobby-timer = { $seconds } s a move
lobby-no-timer = no timer
units-sips = sips
units-points = points
lobby-rematch = Rematch! { $players }: tap **Join**.
lobby-computer-in = { $p } sits down.
lobby-computer-out = { $p } left the table.
lobby-you-in = You're in.
lobby-you-out = You left the table.
persona-expert = plays the computed strategy and remembers who bluffs
persona-cautious = claims the truth where she can and calls only strong claims
persona-bold = bluffs high, passes the cup blind and keeps rolling
persona-caller = calls bullshit on anything that looks loose
final-title = Final standing
replay-link = ▶️ [Watch the replay]({ $url })
standing-out = out
standing-lives = ❤️ { $lives }
standing-winner = 🏆 { $row }
standing-left = left
standing-idle = ⏱️ timer only: not counted
standing-unplayed = didn't play: not counted

## Private answers

your-dice = 🎲 Your dice: **{ $dice }** (only you see this).
your-blind-roll = 🙈 You rolled blind: nobody, you included, has seen the dice.
not-seen-cup = You haven't seen the dice under the cup.
claim-below = Claim below. You may bluff.
cup-sealed = 🔒 The cup is sealed: `{ $digest }`
    When it is lifted, this button shows the dice and the salt, so you can check nobody changed them.
cup-sealed-of = 🔒 { $p }'s cup is sealed: `{ $digest }`
    When it is lifted, this button shows the dice and the salt, so you can check nobody changed them.
cup-lifted = 🔓 The cup held **{ $dice }**, sealed as `{ $digest }`.
    Check it yourself:
    ```
    { $command }
    ```
field-move = Move
field-claim = Standing claim
field-round = This round
field-knight = Knight
field-pot = Pot
field-now = Now
table-title-lobby = 🎲 { $preset } · lobby
table-title = 🎲 { $preset } · round { $round }

## Refusals and notices outside the engine

server-only = Games are played in server channels.
no-game = There's no game in this channel. Start one with /{ command-newgame }.
game-not-here = That game is not from this channel.
game-still-on = That game is still on.
game-over-already = That game is over.
cup-not-here = That cup is not from this channel.
cup-not-lifted = That cup has not been lifted yet.
table-not-saved = The table could not be saved. Please try again.
move-not-saved = That move could not be saved, so it did not happen. Please try again.
database-down = The database can't be reached right now, so nothing changed. Please try again shortly.
move-outcome-unknown = The database stopped answering while your move was being saved. Once it is back, /{ command-table } shows whether it counted.
bot-closing = The bot is restarting: nothing was changed. Try again in a moment.
back-after-restart = ♻️ The bot restarted; the game goes on.
ended-after-restart = ♻️ The bot restarted: this is how the last game ended.
claim-typed = A claim is typed as text, e.g. 65.
peek-open = Every roll is open in this game: see the table.
button-outdated = That button is from an older version of the bot: use the latest message.
button-not-here = That button isn't on this message (any more). Use the buttons you see.
command-unknown = I don't know that command (any more): it was renamed or removed. Type / to see the current ones.
menu-done = Done.

## Slash commands: names (lower case, no spaces, at most 32 characters) and descriptions
## (at most 100 characters). English is what the code says; other catalogs translate it.

language-name = English
command-newgame = newgame
command-newgame-desc = Open a table in this channel
option-newgame-ruleset = ruleset
option-newgame-ruleset-desc = Which rules to play
option-newgame-lives = lives
option-newgame-lives-desc = Lives per player (0 = off; empty = the rule set's)
option-newgame-units = units
option-newgame-units-desc = Count drinks as sips or neutral points
choice-sips = sips
choice-points = points
option-newgame-turn_timer = turn_timer
option-newgame-turn_timer-desc = Seconds per move before the bot moves for you (0 = off, default 90)
option-newgame-language = language
option-newgame-language-desc = The table's language (default: the server's)
command-join = join
command-join-desc = Join the game in this channel
command-leave = leave
command-leave-desc = Leave the game in this channel
command-start = start
command-start-desc = Start the game (host only)
command-endgame = endgame
command-endgame-desc = End the game (host or Manage Messages)
command-addbot = addbot
command-addbot-desc = Seat a computer player (host, in the lobby)
option-addbot-persona = persona
option-addbot-persona-desc = Which computer player (empty: the next one)
choice-persona-cautious = Cautious Carla: { persona-cautious }
choice-persona-bold = Bold Bruno: { persona-bold }
choice-persona-caller = Calling Kees: { persona-caller }
choice-persona-expert = Expert Ada: { persona-expert }
command-removebot = removebot
command-removebot-desc = Take a computer player out (host, in the lobby)
option-removebot-persona = persona
option-removebot-persona-desc = Which computer player (empty: the last one seated)
command-table = table
command-table-desc = Show the table: seats, lives, whose move
command-roll = roll
command-roll-desc = Roll the dice
option-roll-blind = blind
option-roll-blind-desc = Bluffing games: roll without looking
option-roll-keep = keep
option-roll-keep-desc = mexico: keep your lone 1 or 2 and roll the other die
command-claim = claim
command-claim-desc = Claim what is under the cup
option-claim-value = value
option-claim-value-desc = e.g. 65, 5-5, 500, double five, 21, mex
command-accept = accept
command-accept-desc = Accept the claim and take the cup
command-bullshit = bullshit
command-bullshit-desc = Call bullshit: lift the cup
command-fold = fold
command-fold-desc = mexican: admit you can't beat it (1 sip)
command-stand = stand
command-stand-desc = Open rolls: stop rolling, your last roll stands
command-endround = endround
command-endround-desc = End the round early (you pay)
command-tap = tap
command-tap-desc = mexico: lock another player's 3-2 (STUCK)
command-handout = handout
command-handout-desc = mexen: hand your 3-1 sip to a player
option-handout-player = player
option-handout-player-desc = Who drinks your sip
command-knight = knight
command-knight-desc = mexico: name the next Knight
option-knight-player = player
option-knight-player-desc = Who becomes the next Knight
command-peek = peek
command-peek-desc = Look at your own dice under the cup again
command-leaderboard = leaderboard
command-leaderboard-desc = Who drinks, wins and bluffs the most
option-leaderboard-stat = stat
option-leaderboard-stat-desc = What to rank by
option-leaderboard-scope = scope
option-leaderboard-scope-desc = This server or this channel only
choice-server = server
choice-channel = channel
option-leaderboard-period = period
option-leaderboard-period-desc = All time, this month or this week
choice-all = all
choice-month = month
choice-week = week
command-stats = stats
command-stats-desc = A player's card: games, drinks, bluffs, luck
option-stats-user = user
option-stats-user-desc = Whose card (you, if empty)
option-stats-text = text
option-stats-text-desc = Plain text instead of an image
option-stats-computer = computer
option-stats-computer-desc = A computer player's card instead
command-history = history
command-history-desc = The last rounds played in this channel
option-history-count = count
option-history-count-desc = How many rounds (1-25)
command-resetleaderboard = resetleaderboard
command-resetleaderboard-desc = Wipe this server's leaderboard (Manage Server)
command-rules = rules
command-rules-desc = Show the rules of a rule set, or all five
option-rules-ruleset = ruleset
option-rules-ruleset-desc = The rule set to explain; leave empty for an overview
option-rules-public = public
option-rules-public-desc = Show the rules to everyone in the channel (default: only you)
earlier-game = That button is from an earlier game.
moved-elsewhere = Someone beat you to it: the table moved on. Nothing changed; check the table and go again.
menu-pick-one = Pick one option from the menu.
menu-wrong-choice = That choice does not belong to this menu.

## Leaderboard and stats (/leaderboard, /stats, /history, /resetleaderboard)

server-only-command = This command works in server channels only.
stat-wins = Wins
stat-winrate = Win rate
stat-sips = Sips taken
stat-shots = Shots taken
stat-chugs = Chugs taken
stat-points = Points taken
stat-handed_out = Sips handed out
stat-lives_lost = Lives lost
stat-bluffing = Bluff success
stat-calls = Call accuracy
stat-mex = 21s rolled
leaderboard-scope = { $scope ->
    [channel] this channel
   *[server] this server
}
leaderboard-period = { $period ->
    [month] this month
    [week] this week
   *[all] all time
}
leaderboard-title = 🏆 { $stat } · { $scope } · { $period }
leaderboard-empty = Nobody is ranked here yet: play a game!
leaderboard-your-place = Your place
leaderboard-not-ranked = not ranked yet
leaderboard-page = page { NUMBER($page, useGrouping: 0) }/{ NUMBER($pages, useGrouping: 0) }
leaderboard-page-minimum = page { NUMBER($page, useGrouping: 0) }/{ NUMBER($pages, useGrouping: 0) } · at least { $minimum } to rank
leaderboard-page-gone = That page no longer exists.
# The /stats card: the image (drawn in DejaVu Sans, bot/present/fonts/) and its text
# version show every letter as written.

card-wins = { $n ->
    [one] { $n } win
   *[other] { $n } wins
}
card-headline = { $games } · { $wins } · { $rate } win rate
card-headline-no-rate = { $games } · { $wins } · no win rate
card-taken = taken
card-caused = caused
card-lives-lost = lives lost
card-rounds-lost = rounds lost
card-bluffs = bluffs made / caught
card-calls = calls made / right
card-luck = 21s rolled
card-favourite = favourite claim
card-nemesis = nemesis
card-rolls = rolls
card-nothing = nothing
card-none-yet = none yet
card-number = { $n }
card-pair = { $a } / { $b }
card-luck-value = { $n } ({ NUMBER($expected, minimumFractionDigits: 1, maximumFractionDigits: 1) } expected)
card-times = { $what } ({ $n }x)
card-footer = luck: 21s rolled against the 2-in-36 you'd expect from your rolls
card-unknown-player = player { $id }
history-title = 📜 Last rounds here
history-replays = ▶️ Replays: { $links }
history-replay = [game { $n }]({ $url })
history-empty = No rounds played here yet.
history-void = `#{ NUMBER($round, useGrouping: 0) }` { $preset }: void, nobody paid
history-lost = `#{ NUMBER($round, useGrouping: 0) }` { $preset }: { $p } lost ({ $reason ->
        [call] on a call
        [fold] folded
        [timer] time ran out
        [lowest] lowest roll
        [end_early] ended it early
       *[other] { $reason }
    })
history-penalty = { $p } { $amount }: { $why }
history-more = and { $more } more
reset-needs-permission = You need the Manage Server permission to reset the leaderboard.
reset-sure = This wipes this server's counters, favourite claims, nemeses, ratings, achievements, seasons and champions for good (the round history stays). Sure?
reset-not-yours = This isn't your button.
reset-confirm = Yes, reset the leaderboard
reset-cancel = Cancel
reset-done = { $n ->
    [one] Leaderboard reset ({ $n } entry removed).
   *[other] Leaderboard reset ({ $n } entries removed).
}
reset-nothing = Nothing was reset.

## League: ratings, seasons and the achievements list (/season, /achievements, the final
## standing, the card). Achievement names and explanations are in the last section.

command-season = season
command-season-desc = This season: days left, the top players and past champions
option-season-length = length
option-season-length-desc = Manage Server only: seasons last a month or a quarter
choice-quarter = quarter
command-achievements = achievements
command-achievements-desc = Achievements earned and still open, and how rare each is here
option-achievements-user = user
option-achievements-user-desc = Whose achievements (you, if empty)
stat-rating = Rating
stat-rating_bluff = Rating (bluffing games)
stat-rating_open = Rating (open-roll games)
# A rating as shown everywhere; a ? marks a provisional one (rating-provisional says so).
rating = { $provisional ->
    [yes] { NUMBER($rating) }?
   *[no] { NUMBER($rating) }
}
rating-change = { $direction ->
    [up] +{ NUMBER($delta) }
    [down] −{ NUMBER($delta) }
   *[same] ±0
}
rating-legend = { $family ->
    [bluff] Bluffing rating
    [open] Open-roll rating
   *[all] Ratings
}: all start at 1,000
rating-rests = ⏸️ Ratings rest between players who met in { $n } rated games in 24 hours.
rating-provisional = ? = provisional (under 10 games)
leaderboard-page-rating = page { NUMBER($page, useGrouping: 0) }/{ NUMBER($pages, useGrouping: 0) } · { rating-provisional }
standing-rating = { $rating } ({ $change })
achievement-earned = 🏅 { $p }: { $names }
family = { $family ->
    [bluff] Bluffing games
   *[open] Open-roll games
}
season-name = { $quarter ->
    [0] { $month ->
        [1] January
        [2] February
        [3] March
        [4] April
        [5] May
        [6] June
        [7] July
        [8] August
        [9] September
        [10] October
        [11] November
       *[12] December
    } { NUMBER($year, useGrouping: 0) }
   *[other] Q{ $quarter } { NUMBER($year, useGrouping: 0) }
}
season-title = 🏆 Season: { $season }
season-days-left = { $days ->
    [one] Last day today.
   *[other] { $days } days left.
}
season-length = { $length ->
    [quarter] Seasons last a quarter.
   *[month] Seasons last a calendar month.
}
# A place by its medal (4. and on by number): a line of /season's top, one of a
# season's champions.
season-medal = { $place ->
    [1] 🥇
    [2] 🥈
    [3] 🥉
   *[other] { $place }.
}
season-place = { season-medal } { $p } · { $rating }
season-crowned = { season-medal } { $p } { $rating }
season-nobody-yet = No rated games yet this season.
season-past = Past champions
season-past-line = **{ $season }** · { $champions }
season-champion = { $family ->
    [bluff] bluffing
   *[open] open rolls
}: { $p } { $rating }
season-length-set = Done: seasons now last a { $length ->
    [quarter] quarter
   *[month] month
}. This season: { $season }.
season-needs-permission = You need the Manage Server permission to change the season length.
check-what-season-length = The season length
check-what-web-pages = The pages setting
season-over = 🏆 **{ $season }** is over. Champions:
season-over-family = { $family }: { $champions }
season-over-next = A new season starts now, with everyone's rating carried over: /{ command-season }
achievements-title = 🏅 { $name } · { $earned } of { $total }
achievements-earned = 🏅 **{ $name }** · { $rarity }
achievements-open = ▫️ **{ $name }**: { $how } · { $rarity }
achievements-open-unexplained = ▫️ **{ $name }** · { $rarity }
achievements-rarity = { $holders ->
    [0] nobody has it yet
   *[other] { $percent }% of players
}
achievements-none = No achievements here yet.
card-rating = rating · { $family ->
    [bluff] bluffing
   *[open] open rolls
}
card-achievements = achievements
card-achievements-value = { $n } · rarest: { $rarest }

## Help (/help): one short private page, in the reader's language

command-help = help
command-help-desc = What the game is and the commands at hand
option-help-ruleset = ruleset
option-help-ruleset-desc = A rule set's commands; leave empty for the game in this channel
help-title = 🎲 Help
help-title-preset = 🎲 Help · { $preset }
help-game = Two dice, read high die first (a 6 and a 4 is 64); doubles beat those, and 21 beats everything.
    Bluffing games: you roll under a cup, claim a roll, and the next player believes you or lifts the cup.
    Open-roll games: everyone rolls for all to see, and the lowest roll pays.
help-moves-title = Your moves here (the buttons on the turn message do the same)
help-lobby-title = No game here yet: start one
help-command = /{ $command }: { $what }
help-more = Every rule: /{ command-rules } { option-rules-ruleset }:<name>

## Rules (/rules): one page per rule set, each rule a line of its -lines message

rules-overview-title = Mexican dice: five ways to play
rules-overview-preset = { $preset } · { $style }
rules-overview-footer = Details: /{ command-rules } { option-rules-ruleset }:<name>
rules-roll-order-title = Roll order
rules-roll-order = Two dice, read high die first (a 6 and a 4 is 64). Lowest to highest: 31 (where it counts), 32, 41 … 54, 61 … 65, then the doubles 11 up to 66, and 21 on top.
rules-fair-cup-title = Is the bot cheating? Check the cup
rules-fair-cup = When dice go under the cup they are sealed: the SHA-256 of `high-low:salt` (for example `6-2:` and a random salt). The **Cup** button on the turn message shows you the seal (and your own dice, if you rolled them). When the cup is lifted, the Cup button on the reveal shows the dice and the salt: hash that text yourself (`printf '6-2:<salt>' | sha256sum`, or any SHA-256 tool). If it matches the seal, the dice were fixed before anyone answered and never swapped. Dice come from the operating system's cryptographic random source.
rules-table-title = At every table
rules-table-lines = Only the player whose move it is can make it.
    Every rule set can count neutral points instead of sips.
    One game per channel; a game needs at least 2 players.
rules-computers-title = Computer players (/{ command-addbot } in a lobby)
rules-computer = { $name }: { $blurb }.
rules-style = { $family ->
    [bluff] Bluffing
   *[open] Open rolls
}
rules-footer = { $style } · rule set: { $preset }
rules-mexican-title = Mexican — the bar house rules
rules-mexican-summary = Bluff about a hidden roll; whoever loses a call drinks a sip, a shot or the chug.
rules-mexican-lines = You roll in secret: only you see your dice. Then you claim a value and pass the cup on.
    Every claim must match or beat the one standing. Matching is fine, and 21 after 21 counts as a match.
    The next player either takes the cup (and must roll) or calls bullshit and lifts it.
    Bullshit: dice lower than the claim and the claimer loses; equal or higher and the caller loses. The caller starts the next round.
    A 3-1 is a Social: everybody at the table, the roller too, takes a sip and the roller rolls again. The standing claim still has to be met.
    Can't or won't beat the claim? Fold for 1 sip; the dice go unseen and the next player starts fresh.
    The loser's drink depends on the claim: a plain roll is 1 sip, a double is 1 shot, a Mexican (21) is the chug.
    No built-in end: the host stops the game. With the lives option (4 each) every lost round also costs a life and the last player left wins.
rules-dollar-title = Dollar — bluffing for lives
rules-dollar-summary = Mia-style bluffing where each lost call costs one of your four lives.
rules-dollar-lines = Everyone has 4 lives, one per corner of a dollar bill. Lose the last one and you're out; the last player standing wins.
    31 counts as the lowest roll and 21 (the Mexican) as the highest.
    Roll in secret, claim a value, pass the cup. Each claim must be strictly higher than the one before.
    After a claim of 21, the next player who takes the cup must roll again and may only claim 21.
    Taking the cup, you may roll, or pass it unrolled by claiming higher over dice you haven't seen (never after a 21).
    Blind roll: roll without looking. The bot will not show you those dice.
    Bullshit: dice lower than the claim and the claimer loses a life; equal or higher and the caller does. The caller starts the next round.
rules-mexen-title = Mexen — open rolls
rules-mexen-summary = Everyone rolls in the open; the lowest roll drinks, doubled for every Mex.
rules-mexen-lines = The round's starter rolls up to 3 times and may stop after any roll. That number of rolls is everyone's limit this round.
    Only your last roll counts, even if an earlier one was better. A Mex (21) ends your turn straight away.
    A 3-1 doesn't count: hand a sip to any other player and roll again; that reroll doesn't use up one of your rolls.
    When everyone has rolled, the lowest roll loses. Tied players roll off, one roll each, until one is lowest.
    The loser drinks 1 sip, doubled for each Mex rolled this round (2, 4, …), but never more than 4.
    End early: while nobody has rolled a Mex yet, you may end the round after your own roll and take the single penalty yourself.
    Optional lives (6 each): a loss costs 1 life, or 2 for each Mex. The loser starts the next round.
rules-mexicanen-title = Mexicanen — open rolls for lives
rules-mexicanen-summary = Open rolls with 6 lives each; the lowest roll loses lives, more when a Mex came up.
rules-mexicanen-lines = Everyone starts with 6 lives. Turns work as in Mexen: the starter sets how many rolls (1 to 3) and only your last roll counts.
    Scored in numbers: doubles are 100 to 600, Mex (21) is 1000, and 31 is simply the lowest roll.
    The lowest roll loses 1 life, or 2 for every Mex rolled in the round, extra rounds included.
    Ties for lowest go to extra rounds of one roll each among the tied players.
    End round early: while nobody has rolled a Mex, you may end the round after your own roll; then only you lose 1 life.
    The first player down to 0 lives loses and the game ends there (option: play on until one player is left).
    The loser starts the next round.
rules-mexico-title = Mexico — the phone-app rules
rules-mexico-summary = Open rolls for 2 to 8 players with a growing pot, a Knight and the Elbow.
rules-mexico-lines = 2 to 8 players. The starter rolls up to 3 times and sets everyone's limit; only your last roll counts.
    Keep a die: a lone 1 or 2 (the other die neither) may be kept once per turn while you reroll the other. It uses up a roll.
    The pot starts each round at 1. Any double adds the value of one of its dice.
    Mexico (21) ends your turn: a pot of 1 jumps to 8, otherwise it doubles. Each further Mexico doubles it again.
    The Knight: rolling 1-1 makes you Knight and the old Knight sips once. If the Knight rolls it, they pick a new Knight.
    Whenever anyone rolls a double from 2-2 to 6-6, the Knight drinks as many sips as one die shows.
    Elbow (3-1): not a result. Your turn starts over with all your rolls.
    STUCK (3-2): while you still have rolls, the others may hit TAP before you roll again; that locks your 3-2 in.
    The lowest roll drinks the whole pot; ties roll again. The loser starts the next round. There is no winner: play until you stop.

## Permissions the bot lacks in a channel (names as Discord's settings show them)
perm-view_channel = View Channel
perm-send_messages = Send Messages
perm-send_messages_in_threads = Send Messages in Threads
perm-embed_links = Embed Links
perm-read_message_history = Read Message History
perm-without-view_channel = I can't post here
perm-without-send_messages = I can't post here
perm-without-send_messages_in_threads = I can't post in this thread
perm-without-embed_links = I can't show the table here
perm-without-read_message_history = I can't tidy up old buttons here after a restart
perm-missing = { $without }: give me { $names } in this channel.
perm-missing-thread = { $without }: give me { $names } in the channel this thread belongs to.

## Engine refusals (bot/engine/errors.py raises them by key): one error-<key> each.
## $claim, $standing, $roll are rolls in the table's words; $valid, $presets, $options,
## $spellings are ready-made lists; $player is a mention.

error-game-over = This game is over.
error-already-over = This game is already over.
error-not-started = The game has not started yet.
error-already-started = This game has already started.
error-not-in-game = You're not in this game.
error-not-your-turn = It's not your turn: it's { $player }'s move.
error-already-in-game = You're already in this game.
error-out-of-game = You're out of this game.
error-table-full = The table is full ({ $max_players } players at most).
error-lives-game-closed = A running game played for lives takes no new players.
error-host-starts = Only the host can start the game.
error-host-ends = Only the host can end the game.
error-too-few-players = A game needs at least { $min_players } players.
error-no-person-seated = A game needs at least one person at the table.
error-computers-in-lobby = Computer players sit down in the lobby, before the game starts.
error-host-seats-computers = Only the host seats or removes computer players.
error-computer-already-seated = That computer player is already at the table.
error-no-such-computer = There is no such computer player at the table.
error-stale-button = That button is from an earlier turn; use the latest message.
error-button-not-ours = That button does not belong to this bot's game.
error-unknown-move = Unknown move '{ $act }'.
error-claim-not-a-roll = That claim is not a roll.
error-choice-names-no-player = That choice names no player.
error-keep-one-or-two = Only a lone 1 or 2 can be kept.
error-move-takes-no-value = That move takes no value.
error-needs-claim = This move needs a claim.
error-needs-die = This move needs the die to keep.
error-needs-player = This move needs a player.
error-needs-computer = This move needs a computer player.
error-not-a-roll = { $typed } is not a roll. Type for example: { $spellings }.
error-no-cup = There is no cup to bluff with in { $preset }.
error-three-one-no-result = A 3-1 is not a result in { $preset }: it is never under the cup. Claim one of: { $valid }.
error-claim-too-low = { $claim } does not beat the standing claim of { $standing }. Valid now: { $valid }.
error-no-claim-now = No claim to make now.
error-blind-off = Blind rolls are off in this game.
error-claim-after-roll = You've rolled: now claim a value (or fold).
error-social-reroll-open = Roll again after the Social, with your eyes open.
error-roll-first = Roll first.
error-answer-first = Accept or call bullshit first.
error-no-claim-to-answer = There is no claim waiting for an answer.
error-not-your-answer = It's not your turn: the claim was passed to { $player }.
error-pass-unrolled-off = You must roll after accepting: passing the cup unrolled is off.
error-accept-before-pass = Accept the claim first, then pass the cup on.
error-roll-after-top = After a claim of { $claim } you must roll again.
error-fold-off = Folding is off in this game.
error-fold-needs-claim = You can fold only after rolling against a standing claim.
error-open-roll-only = That move belongs to the open-roll games, not { $preset }.
error-every-roll-open = Every roll is open in this game.
error-hand-out-first = Hand out your sip first (you rolled a 3-1).
error-name-knight-first = Name the next Knight first.
error-no-rolls-left = You have no rolls left: stand, or end the round.
error-no-stand-in-rolloff = No standing in a roll-off: roll.
error-nothing-to-stand-on = Roll first: there is no roll of yours to stand on.
error-keep-off = Keeping a die is off in this game.
error-cannot-keep = You can keep only a lone 1 or 2 beside a 3-6, once per turn, with a roll left.
error-keep-which = You can only keep the { $die }.
error-end-early-off = Ending a round early is off in this game.
error-rolloff-runs-on = A roll-off cannot be ended early.
error-top-rolled = A { $roll } was rolled: this round can't end early.
error-own-roll-first = Make your own counting roll before you end the round.
error-nothing-to-tap = There is no 3-2 to lock right now.
error-tap-own = You can't TAP your own 3-2.
error-no-sip = You have no sip to hand out.
error-sip-to-other = Hand the sip to another player in the game.
error-no-knight = You have no Knight to name.
error-knight-other = Name another player in the game as Knight.
error-unknown-preset = Unknown rule set '{ $preset }'. Choose one of: { $presets }.
# The bot arena's round (bot/engine/maexchen.py); its server answers bots in the protocol's
# own words, so these reach only its log and tests.
error-arena-seats = An arena round needs at least two bots, not { $players }.
error-arena-not-a-roll = { $dice } is not a pair of dice.
error-arena-fault = A fault of { $reason } has no place at the { $stage } stage.
error-arena-stage = That move belongs to the { $wanted } stage, not { $stage }.
error-unknown-options = Unknown option(s): { $options }.
error-three-one-not-allowed = A 3-1 cannot be '{ $three_one }' in a { $family } game.
error-lives-range = Lives must be between 1 and 99.
error-lives-required = This rule set plays for lives: lives cannot be switched off.
error-rolls-range = Rolls per turn must be between 1 and 6.
error-base-cap-range = The base and the cap must be at least 1.
error-player-limits = Player limits must satisfy 2 <= min <= max <= 25.
error-turn-timer-range = The turn timer is 0 (off) to { $max_seconds } seconds, not { $seconds }.
error-units-first = Units are 'sips' or 'points'; first is 'host' or 'random'.

## Refusals worded outside the engine: the tables (bot/game/tables.py), a command that failed
## (bot/runtime/client.py) and values no real client sends (bot/adapter/checks.py).
no-game-here = There's no game in this channel. Start one with /{ command-newgame }.
channel-busy = A game is already running in this channel: join it or /{ command-endgame }.
command-no-permission = You don't have the permission this command needs.
command-check-failed = You can't use this command here.
command-bad-value = I couldn't read one of the values you gave. Please pick it again.
command-bad-options = This command came with options I don't know. Please type it again.
command-failed = Something went wrong on my side. /{ command-table } shows where the game stands.
check-whole-number = { $what } must be a whole number from { $low } to { $high }.
check-one-of = { $what } must be one of: { $allowed }.
check-text = { $what } must be text of at most { $limit } characters.
check-what-ruleset = The rule set
check-what-lives = Lives
check-what-units = Units
check-what-turn-timer = The turn timer
check-what-language = Language
check-what-computer = The computer player
check-what-keep = The die to keep
check-what-stat = The stat
check-what-scope = The scope
check-what-period = The period
check-what-rounds = The number of rounds

## Achievements: achievement-<key> is the name, achievement-<key>-how says how to earn it
## (bot/league/achievements.py lists the keys).
achievement-first_win = First blood
achievement-first_win-how = Win a game.
achievement-ten_wins = Ten-time champ
achievement-ten_wins-how = Win 10 games.
achievement-flawless = Flawless
achievement-flawless-how = Win a game with lives by knocking someone out, without losing a life.
achievement-last_life = Hanging by a thread
achievement-last_life-how = Win a game after dropping to your last life.
achievement-comeback = Comeback kid
achievement-comeback-how = Win a game after trailing someone by 3 lives or more.
achievement-ada_slayer = Ada who?
achievement-ada_slayer-how = Beat Expert Ada one on one.
achievement-bluff_hunter = Bluff hunter
achievement-bluff_hunter-how = Catch 3 bluffs in one game.
achievement-lie_detector = Lie detector
achievement-lie_detector-how = Call bullshit 4 times in one game and be right every time.
achievement-mex_exposed = Fake 21 busted
achievement-mex_exposed-how = Call bullshit on a 21 that isn't there.
achievement-ghost_mex = Ghost 21
achievement-ghost_mex-how = Claim a 21 you don't have and get it believed.
achievement-blind_faith = Blind faith
achievement-blind_faith-how = Claim on dice you never saw, get called, and be right.
achievement-triple_mex = Hat-trick of 21s
achievement-triple_mex-how = Roll a 21 three times in one game.
achievement-social = Social!
achievement-social-how = Roll a Social: the 3-1 everyone drinks to.
achievement-bartender = Bartender
achievement-bartender-how = Hand out 3 sips with 3-1s in one game.
achievement-double_knight = Knighted twice
achievement-double_knight-how = Become the Knight twice in one game.
achievement-tapper = Knock knock
achievement-tapper-how = Hit TAP to lock in another player's 3-2.
achievement-marathon = Marathon
achievement-marathon-how = Play a game of 30 rounds or more to the end.
achievement-full_table = Full house
achievement-full_table-how = Play at a table of 6 or more.
achievement-dry_run = Stone-cold sober
achievement-dry_run-how = Play 10 rounds or more to the end without a drink while others drink.
achievement-tourist = Tourist
achievement-tourist-how = Play every rule set.
achievement-all_rounder = All-rounder
achievement-all_rounder-how = Win in every rule set.
achievement-centurion = Centurion
achievement-centurion-how = Play 100 games.

## The web companion (README, Web companion): /web and the pages it links to.

command-web = web
command-web-desc = This server's leaderboards, profiles and replays on the web (Manage Server)
option-web-pages = pages
option-web-pages-desc = Turn the web pages on or off (empty: show the link)
choice-on = on
choice-off = off
web-needs-permission = Only someone with Manage Server can turn the web pages on or off.
web-not-set-up = This bot has no web pages: its operator has not set WEB_URL.
web-on = 🌐 This server's pages: { $link }
    Anyone with the link sees the leaderboards, profiles and finished games. `/{ command-web } { option-web-pages }:{ choice-off }` takes them down.
web-off = The web pages are off: the link shows nothing any more.
web-is-off = This server's web pages are off. `/{ command-web } { option-web-pages }:{ choice-on }` puts them up.
web-replay-link = 🎬 Replay: { $link }
web-site = Mexican dice
web-leaderboards = Leaderboards
web-other-boards = Other leaderboards
web-season = Season
web-games = Last games
web-no-games = No finished games yet.
web-replay = Replay
web-player = Player …{ $tag }
web-ratings = Ratings
web-rating-history = Rating history
web-achievements = Achievements
web-card = Statistics
web-step = Move { NUMBER($n, useGrouping: 0) } of { NUMBER($total, useGrouping: 0) }
web-play = ▶ Play
web-pause = ⏸ Pause
web-back = ◀
web-next = ▶
web-round = Round { NUMBER($round, useGrouping: 0) }
web-to-move = { $p } to move
web-claim = Claim: { $claim } by { $p }
web-cup-down = 🥤 Cup down, sealed
web-cup-lifted = 🥤 Cup lifted: { $dice }
web-seal-check = Check the seal
web-seal-ok = ✅ The seal matches: these dice were under the cup all along.
web-seal-bad = ❌ The seal does not match.
web-seal-how = The seal is sha256 of this text:
web-player-col = Player
web-lives-col = Lives
web-taken-col = Taken
web-out = out
web-not-found = Nothing here: the link is wrong, or this server's pages are off.
web-footer = Pages of the Mexican dice bot, in your browser's language.
web-version = version { $version }
web-seal-down = The seal is sha256 of the dice and a secret salt: it is shown when the cup goes down, and the text it hashed when the cup is lifted.
web-game-line = { $date } · { $players }
web-game-winner = 🏆 { $winner }
web-game-no-winner = no winner
web-root-title = Mexican dice: a Discord bot's pages
web-root-text = This site shows the leaderboards, seasons, profiles and game replays of Discord servers that play Mexican dice with this bot. A server's pages are private to its link: an admin turns them on with /{ command-web } in Discord and shares the link. There is nothing to browse here without one.
preset-name-mexican = Mexican
preset-name-dollar = Dollar
preset-name-mexen = Mexen
preset-name-mexicanen = Mexicanen
preset-name-mexico = Mexico
# The rule set menus show each rule set by its name; its code stays the value.
choice-mexican = { preset-name-mexican }
choice-dollar = { preset-name-dollar }
choice-mexen = { preset-name-mexen }
choice-mexicanen = { preset-name-mexicanen }
choice-mexico = { preset-name-mexico }
