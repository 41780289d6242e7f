# The bot's Dutch. The same messages with the same variables as en.ftl (README, Languages),
# plus one error-<key> message per engine refusal (bot/engine/errors.py raises them by key).
# Variables: $p, $by, $claimer, $player... are players, already shown as mentions or names;
# $roll, $claim, $cup, $standing are rolls already in the table's words; $valid, $presets,
# $options, $spellings are ready-made lists; $n, $hits... are numbers.
#
# Written as it is said at the bar: short, informal "je". Keep these words everywhere:
#   roll (verb / noun)   gooien, "gooit" / worp, worpen
#   dice / a die         stenen / steen (colloquial for dobbelsteen)
#   cup                  beker; "under the cup" = onder de beker
#   claim (verb / noun)  zeggen, "zegt **65**" / bod, boden ("Huidig bod")
#   accept               geloven ("gelooft **65**", button "Geloven & gooien")
#   call bullshit        **bullshit** roepen (the loanword stays, as in Dutch bars)
#   bluff                bluffen, bluf
#   fold                 opgeven ("geeft het op bij")
#   pass the cup on      (ongezien) doorgeven
#   stand                laten staan ("laat **54** staan")
#   peek at own dice     kijken (never spieken: that is cheating off a neighbour)
#   commands             actions as infinitives (gooien, zeggen, laten-staan), lookups as
#                        nouns (tafel, ranglijst); words joined by hyphens (nieuw-spel)
#   roll-off names       Gedeeld laagste (tie for lowest)
#   keep a die           houden ("Hou de 1")
#   end round early      vroegtijdig beëindigen ("beëindigt de ronde met"), every preset
#   roll-off             overgooien
#   hand out (3-1 sip)   uitdelen
#   Knight               Ridder
#   TAP / STUCK          (de 3-2) vastzetten, button "Vastzetten!"; a 3-2 that may be
#                        locked is announced "**3-2** voor …" (not kloppen: that is
#                        "true", as in "Het klopte!")
#   3-1 names            Proost (social) / 3-1, deel een slok uit / Elleboog (elbow)
#   top roll             Mex (mexican, mex), Mexico (mexico)
#   doubles in words     dubbele vijf; other rolls as one number word: vijfenzestig
#   drinks               slok/slokken, shotje/shotjes, adtje/adtjes (chug)
#   lives, points        leven/levens, punt/punten; game = spel (a count: potje/potjes)
#   turn / move          beurt (whose turn it is: "aan de beurt") / zet (one move:
#                        "per zet"); round = ronde/rondes; turn timer = bedenktijd
#   take a penalty       drinkt ("drinkt **2 slokken**"), chug: "moet **adten**", points:
#                        "krijgt"; lose lives = verliest
#   is out / leave       ligt eruit / opstappen; sit down = aanschuiven
#   rule set             variant; host stays host; rematch = Revanche

## Rolls in words (mexican and dollar speak in words; the Dutch presets in numbers)

roll-31 = eenendertig
roll-32 = tweeëndertig
roll-41 = eenenveertig
roll-42 = tweeënveertig
roll-43 = drieënveertig
roll-51 = eenenvijftig
roll-52 = tweeënvijftig
roll-53 = drieënvijftig
roll-54 = vierenvijftig
roll-61 = eenenzestig
roll-62 = tweeënzestig
roll-63 = drieënzestig
roll-64 = vierenzestig
roll-65 = vijfenzestig
roll-11 = dubbele één
roll-22 = dubbele twee
roll-33 = dubbele drie
roll-44 = dubbele vier
roll-55 = dubbele vijf
roll-66 = dubbele zes
top-mexican = Mex
top-mex = Mex
top-mexico = Mexico
three-one-social = Proost
three-one-handout = 3-1, deel een slok uit
three-one-elbow = Elleboog

## Amounts

amount = { $unit ->
    [sip] { $n ->
        [one] { $n } slok
       *[other] { $n } slokken
    }
    [shot] { $n ->
        [one] { $n } shotje
       *[other] { $n } shotjes
    }
    [chug] { $n ->
        [one] { $n } adtje
       *[other] { $n } adtjes
    }
    [life] { $n ->
        [one] { $n } leven
       *[other] { $n } levens
    }
    [point] { $n ->
        [one] { $n } punt
       *[other] { $n } punten
    }
   *[game] { $n ->
        [one] { $n } potje
       *[other] { $n } potjes
    }
}
# A drink one player hands another (penalty-handed): a sip in words, as the table says it.
amount-handed = { $unit ->
    [sip] { $n ->
        [one] een slok
       *[other] { $n } slokken
    }
   *[other] { amount }
}
# A capped loss of lives: what was lost, and how many were due (penalty-lives).
amount-last-lives = { $n ->
    [one] het laatste leven ({ $due } verschuldigd)
   *[other] de laatste { $n } levens ({ $due } verschuldigd)
}
# A drink as a penalty line says it after the player's name, verb included
# ("drinkt een shotje"; a chug "moet adten"; points are "krijgt").
amount-drunk = { $unit ->
    [sip] drinkt **{ $n ->
        [one] een slok
       *[other] { $n } slokken
    }**
    [shot] drinkt **{ $n ->
        [one] een shotje
       *[other] { $n } shotjes
    }**
    [chug] moet **{ $n ->
        [one] adten
       *[other] { $n }× adten
    }**
   *[point] krijgt **{ $n ->
        [one] een punt
       *[other] { $n } punten
    }**
}
list-and = { $a } en { $b }
list-or = { $a } of { $b }
list-join = { $a }, { $b }
nobody = niemand
a-computer = een computerspeler

## How ending a round early is said: one name in every rule set

end-early-verb = beëindigt de ronde
end-early-choice = de ronde vroegtijdig beëindigen
end-early-button = Ronde vroegtijdig beëindigen
end-early-cause = beëindigde de ronde vroegtijdig

## Odds of a claim on a fresh roll

odds-every = elke nieuwe worp haalt { $roll }
odds-rare = een nieuwe worp haalt dat maar { $hits } van de { $out } keer
odds-likely = een nieuwe worp haalt dat { $hits } van de { $out } keer, bijna altijd
odds-plain = een nieuwe worp haalt dat { $hits } van de { $out } keer

## Why a penalty was paid

cause-caught = zei { $claim }, maar had { $cup }
cause-wrong-call = riep bullshit, maar { $claim } klopte
cause-folded = gaf het op bij { $claim }
cause-social = Proost
cause-timer = tijd op
cause-handed-out = uitgedeeld door { $by }
cause-knight-one-one = Ridder, bij een 1-1
cause-knight-double = Ridder, door dubbele { $die ->
    [2] twee
    [3] drie
    [4] vier
    [5] vijf
   *[6] zes
}
cause-lowest = laagste worp ({ $roll })
cause-lowest-mexes = laagste worp ({ $roll }), { $mexes }× { $top }
cause-tied-left = laatst gegooid bij gelijkstand
cause-tied-left-mexes = laatst gegooid bij gelijkstand, { $mexes }× { $top }
cause-pot = de pot, laagste worp ({ $roll })
cause-pot-tied-left = de pot, laatst gegooid bij gelijkstand

## What a move did: one line per event

joined = { $p } doet mee.
waiting = { $p } doet mee vanaf de volgende ronde.
seated = { $p } schuift aan.
left = { $p } stapt op.
left-queue = { $p } wacht niet meer op een plek.
left-game = { $p } stapt uit het spel.
left-timeouts = { $p } miste twee beurten en verlaat de tafel.
out = { $p } ligt eruit.
out-no-lives = 💀 { $p } heeft geen levens meer.
out-left = { $p } stapt op en ligt eruit.
out-timeouts = { $p } miste twee beurten en ligt eruit.
host = { $p } is nu de host.
started = 🎲 Daar gaan we!
round-started = **Ronde { $round }**
rolled-blind = { $p } gooit blind onder de beker: niemand zag de stenen.
rolled-under-cup = { $p } gooit onder de beker.
rolled-rolloff = { $p } gooit **{ $roll }** bij het overgooien.
rolled-kept = { $p } houdt de { $die } en gooit **{ $roll }** (worp { $n }).
rolled-again = { $p } gooit **{ $roll }** (worp { $n }).
rolled = { $p } gooit **{ $roll }**.
social = { $p } gooit 3-1: **Proost**! Iedereen een slok, en { $p } gooit opnieuw.
handout = { $p } gooit 3-1: een slok uitdelen, daarna nog een keer gooien (telt niet mee).
elbow = { $p } gooit 3-1: **Elleboog**! De beurt begint opnieuw.
claimed = { $p } zegt **{ $claim }**.
passed = { $p } geeft de beker ongezien door en zegt **{ $claim }**.
accepted = { $p } gelooft **{ $claim }**.
reveal-bluff = { $p } roept **bullshit** bij **{ $claim }** van { $claimer }: **{ $cup }** onder de beker. Bluf betrapt! ({ $odds })
reveal-true = { $p } roept **bullshit** bij **{ $claim }** van { $claimer }: **{ $cup }** onder de beker. Het klopte! ({ $odds })
penalty-handed = { $by } geeft { $p } **{ $drunk }**.
penalty-drunk = → { $p } { $drunk }.
penalty-drunk-why = → { $p } { $drunk }: { $why }.
penalty-lives = → { $p } verliest **{ $lives }**.
penalty-lives-why = → { $p } verliest **{ $lives }**: { $why }.
penalty-both = → { $p } { $drunk } en verliest **{ $lives }**.
penalty-both-why = → { $p } { $drunk } en verliest **{ $lives }**: { $why }.
round-void = Ronde { $round } telt niet: niemand betaalt.
knight-none = Er is nu geen Ridder.
knight = { $p } is de **Ridder**.
over-unplayed = 🚫 Geen ronde gespeeld: dit spel telt niet mee.
over-short = 🚫 Minder dan { $n } rondes gespeeld: dit spel telt niet mee.
over-timer = 🚫 De timer speelde voor de anderen: dit spel telt niet mee.
over-loser = 💀 { $p } staat op nul levens en verliest het spel.
over-ended = 🏁 { $p } heeft het spel gestopt.
over-ended-lead = 🏁 { $p } stopte het spel bij voorsprong: geen winnaar.
over-empty = 🏁 Einde spel: te weinig spelers over.
folded = { $p } geeft het op bij **{ $roll }**.
stood = { $p } laat **{ $roll }** staan.
ended-round = { $p } { $verb } met **{ $roll }**.
tapped = { $p } **zet { $roller } vast** op 3-2.
stuck = **3-2** voor { $p }: de anderen mogen die vastzetten.
pot = De pot staat op **{ $pot }**.
knight-choice = { $p } gooit 1-1 als Ridder en wijst de volgende Ridder aan.
limit = Worplimiet deze ronde: **{ $limit }**.
timeout = ⏰ De tijd van { $p } is op.
rolloff = **Gedeeld laagste**: { $players } gooien over.

## The turn message

so-far = Tot nu toe: { $results }
scores-each = ❤️ { $lives } per speler
prompt-thinking = { $p } denkt na…
prompt-handout = { $p }, deel je slok uit.
prompt-knight = { $p }, wijs de volgende Ridder aan.
prompt-answer = { $p }: geloven en gooien, of bullshit?
prompt-claim-seen = { $p }, jouw bod (bluffen mag).
prompt-claim = { $p }, jouw bod.
prompt-accepted-pass = { $p }, gooi, of geef de beker ongezien door.
prompt-accepted = { $p }, gooi.
prompt-reroll = { $p }, gooi opnieuw.
prompt-roll-cup = { $p }, gooi onder de beker.
prompt-rolloff = { $p }, gooi over.
prompt-your-roll = { $p }, jij gooit.
prompt-your-move = { $p }, jouw beurt.
prompt-choices = { $p }, { $choices }.
choice-roll = opnieuw gooien
choice-keep = een steen houden
choice-stand = laten staan
status-rolls-left-first = { $left ->
    [one] nog { $left } worp (jouw aantal geldt voor iedereen)
   *[other] nog { $left } worpen (jouw aantal geldt voor iedereen)
}
status-rolls-left = { $limit ->
    [one] { $left } van { $limit } worp over
   *[other] { $left } van { $limit } worpen over
}
reminder = { $p }, jouw beurt: je tijd loopt af { $when }.

## Buttons and menus

button-join = Meedoen
button-leave = Opstappen
button-start = Start
button-roll = Gooien
button-roll-blind = Blind gooien
button-accept = Geloven
button-bullshit = Bullshit!
button-fold = Opgeven
button-stand = Laten staan
button-keep = Houden
button-keep-die = Hou de { $die }
button-end-round = Ronde vroegtijdig beëindigen
button-tap = Vastzetten! (voor de anderen)
button-add-computer = Computer erbij
button-accept-roll = Geloven & gooien
button-accept-blind = Geloven & blind gooien
button-accept-pass = Geloven & doorgeven
button-cup = Beker
button-rematch = Revanche
menu-claim = Jouw bod…
menu-pass = Ongezien doorgeven, met bod…
menu-handout = Geef je slok aan…
menu-knight = Wijs de volgende Ridder aan…

## The lobby and the end of a game

lobby-title = 🎲 { $preset } · nieuwe tafel
lobby-body = Host: { $host }
    Aan tafel: { $seats } ({ $seated }/{ $most })
    { $rules }
    Tik op **Meedoen** om te spelen; de host tikt op **Start**.
lobby-no-lives = geen levens
lobby-timer = { $seconds } s per zet
lobby-no-timer = geen timer
units-sips = slokken
units-points = punten
lobby-rematch = Revanche! { $players }: tik op **Meedoen**.
lobby-computer-in = { $p } schuift aan.
lobby-computer-out = { $p } stapt op.
lobby-you-in = Je doet mee.
lobby-you-out = Je bent opgestapt.
persona-expert = speelt de berekende strategie en onthoudt wie er bluft
persona-cautious = zegt de waarheid waar het kan en roept alleen bullshit bij sterke boden
persona-bold = bluft hoog, geeft de beker ongezien door en blijft gooien
persona-caller = roept bullshit bij alles wat wankel lijkt
final-title = Eindstand
replay-link = ▶️ [Bekijk de herhaling]({ $url })
standing-out = eruit
standing-lives = ❤️ { $lives }
standing-winner = 🏆 { $row }
standing-left = opgestapt
standing-idle = ⏱️ alleen de timer: telt niet
standing-unplayed = niet gespeeld: telt niet

## Private answers

your-dice = 🎲 Onder je beker: **{ $dice }** (alleen jij ziet dit).
your-blind-roll = 🙈 Je gooide blind: niemand, ook jij niet, heeft de stenen gezien.
not-seen-cup = Je hebt de stenen onder de beker niet gezien.
claim-below = Kies hieronder je bod. Bluffen mag.
cup-sealed = 🔒 De beker is verzegeld: `{ $digest }`
    Gaat de beker omhoog, dan toont deze knop de stenen en de salt, zodat je ziet dat niemand ze veranderde.
cup-sealed-of = 🔒 De beker van { $p } is verzegeld: `{ $digest }`
    Gaat de beker omhoog, dan toont deze knop de stenen en de salt, zodat je ziet dat niemand ze veranderde.
cup-lifted = 🔓 Onder de beker lag **{ $dice }**, verzegeld als `{ $digest }`.
    Check het zelf:
    ```
    { $command }
    ```
field-move = Beurt
field-claim = Huidig bod
field-round = Deze ronde
field-knight = Ridder
field-pot = Pot
field-now = Nu
table-title-lobby = 🎲 { $preset } · lobby
table-title = 🎲 { $preset } · ronde { $round }

## Refusals and notices outside the engine

server-only = Spellen speel je in serverkanalen.
no-game = Er is geen spel in dit kanaal. Begin er een met /{ command-newgame }.
game-not-here = Dat spel is niet van dit kanaal.
game-still-on = Dat spel loopt nog.
game-over-already = Dat spel is voorbij.
cup-not-here = Die beker is niet van dit kanaal.
cup-not-lifted = Die beker is nog niet opgetild.
table-not-saved = De tafel kon niet worden opgeslagen. Probeer het nog eens.
move-not-saved = Die zet kon niet worden opgeslagen, dus hij telt niet. Probeer het nog eens.
database-down = De database is nu niet bereikbaar, dus er is niets veranderd. Probeer het zo nog eens.
move-outcome-unknown = De database reageerde niet meer terwijl je zet werd opgeslagen. Zodra de database terug is, zie je met /{ command-table } of je zet telt.
bot-closing = De bot start opnieuw op: er is niets veranderd. Probeer het zo nog eens.
back-after-restart = ♻️ De bot is herstart; het spel gaat door.
ended-after-restart = ♻️ De bot is herstart: zo eindigde het laatste spel.
claim-typed = Een bod typ je als tekst, bv. 65.
peek-open = Elke worp is open in dit spel: kijk op tafel.
button-outdated = Die knop komt van een oudere versie van de bot: gebruik het laatste bericht.
button-not-here = Die knop staat niet (meer) op dit bericht. Gebruik de knoppen die je ziet.
command-unknown = Dat commando ken ik niet (meer): het is hernoemd of verwijderd. Typ / om de huidige te zien.
menu-done = Klaar.

## Slash commands: names (lower case, no spaces, at most 32 characters) and descriptions
## (at most 100 characters). English is what the code says; other catalogs translate it.

language-name = Nederlands
command-newgame = nieuw-spel
command-newgame-desc = Open een tafel in dit kanaal
option-newgame-ruleset = variant
option-newgame-ruleset-desc = Met welke regels je speelt
option-newgame-lives = levens
option-newgame-lives-desc = Levens per speler (0 = uit; leeg = die van de variant)
option-newgame-units = eenheid
option-newgame-units-desc = Tel drank in slokken of in neutrale punten
choice-sips = slokken
choice-points = punten
option-newgame-turn_timer = bedenktijd
option-newgame-turn_timer-desc = Seconden per zet; daarna doet de bot je zet (0 = uit, standaard 90)
option-newgame-language = taal
option-newgame-language-desc = De taal van de tafel (standaard: die van de server)
command-join = meedoen
command-join-desc = Doe mee met het spel in dit kanaal
command-leave = opstappen
command-leave-desc = Verlaat het spel in dit kanaal
command-start = starten
command-start-desc = Start het spel (alleen de host)
command-endgame = stoppen
command-endgame-desc = Stop het spel (host of Berichten beheren)
command-addbot = computer-erbij
command-addbot-desc = Zet een computerspeler aan tafel (host, in de lobby)
option-addbot-persona = wie
option-addbot-persona-desc = Welke computerspeler (leeg: de volgende)
choice-persona-cautious = Cautious Carla: { persona-cautious }
choice-persona-bold = Bold Bruno: { persona-bold }
choice-persona-caller = Calling Kees: { persona-caller }
choice-persona-expert = Expert Ada: { persona-expert }
command-removebot = computer-eruit
command-removebot-desc = Haal een computerspeler van tafel (host, in de lobby)
option-removebot-persona = wie
option-removebot-persona-desc = Welke computerspeler (leeg: de laatst aangeschoven)
command-table = tafel
command-table-desc = Toon de tafel: plaatsen, levens, wie er aan de beurt is
command-roll = gooien
command-roll-desc = Gooi de stenen
option-roll-blind = blind
option-roll-blind-desc = Blufspellen: gooi zonder te kijken
option-roll-keep = houden
option-roll-keep-desc = mexico: hou je losse 1 of 2 en gooi de andere steen
command-claim = zeggen
command-claim-desc = Zeg wat er onder de beker ligt
option-claim-value = bod
option-claim-value-desc = bv. 65, 6-5, 5-5, 500, 21, mex
command-accept = geloven
command-accept-desc = Geloof het bod en pak de beker
command-bullshit = bullshit
command-bullshit-desc = Roep bullshit: til de beker op
command-fold = opgeven
command-fold-desc = mexican: geef toe dat je er niet overheen komt (1 slok)
command-stand = laten-staan
command-stand-desc = Open worpen: stop met gooien, je laatste worp blijft staan
command-endround = ronde-afsluiten
command-endround-desc = Beëindig de ronde vroegtijdig (jij betaalt)
command-tap = vastzetten
command-tap-desc = mexico: zet de 3-2 van een ander vast
command-handout = uitdelen
command-handout-desc = mexen: geef je 3-1-slok aan een speler
option-handout-player = speler
option-handout-player-desc = Wie je slok drinkt
command-knight = ridder-aanwijzen
command-knight-desc = mexico: wijs de volgende Ridder aan
option-knight-player = speler
option-knight-player-desc = Wie de volgende Ridder wordt
command-peek = kijken
command-peek-desc = Kijk nog eens naar je eigen stenen onder de beker
command-leaderboard = ranglijst
command-leaderboard-desc = Wie het meest drinkt, wint en bluft
option-leaderboard-stat = stat
option-leaderboard-stat-desc = Waarop de lijst sorteert
option-leaderboard-scope = bereik
option-leaderboard-scope-desc = Deze server of alleen dit kanaal
choice-server = server
choice-channel = kanaal
option-leaderboard-period = periode
option-leaderboard-period-desc = Altijd, deze maand of deze week
choice-all = altijd
choice-month = maand
choice-week = week
command-stats = stats
command-stats-desc = Spelerskaart: potjes, drank, bluf, geluk
option-stats-user = speler
option-stats-user-desc = Wiens kaart (leeg: de jouwe)
option-stats-text = tekst
option-stats-text-desc = Gewone tekst in plaats van een afbeelding
option-stats-computer = computer
option-stats-computer-desc = Liever de kaart van een computerspeler
command-history = geschiedenis
command-history-desc = De laatst gespeelde rondes in dit kanaal
option-history-count = aantal
option-history-count-desc = Hoeveel rondes (1-25)
command-resetleaderboard = ranglijst-wissen
command-resetleaderboard-desc = Wis de ranglijst van deze server (Server beheren)
command-rules = regels
command-rules-desc = Toon de regels van een variant, of alle vijf
option-rules-ruleset = variant
option-rules-ruleset-desc = De variant om uit te leggen; leeg voor een overzicht
option-rules-public = iedereen
option-rules-public-desc = Laat de regels aan iedereen in het kanaal zien (standaard: alleen aan jou)

earlier-game = Die knop is van een eerder spel.
moved-elsewhere = Iemand was je net voor: het spel is al verder. Er is niks veranderd; kijk naar de tafel en probeer opnieuw.
menu-pick-one = Kies één optie uit het menu.
menu-wrong-choice = Die keuze hoort niet bij dit menu.

## Leaderboard and stats (/leaderboard, /stats, /history, /resetleaderboard)

server-only-command = Dit commando werkt alleen in serverkanalen.
stat-wins = Gewonnen
stat-winrate = Winstpercentage
stat-sips = Slokken gedronken
stat-shots = Shotjes gedronken
stat-chugs = Adtjes gedronken
stat-points = Punten gekregen
stat-handed_out = Slokken uitgedeeld
stat-lives_lost = Levens verloren
stat-bluffing = Bluf gelukt
stat-calls = Bullshit terecht
stat-mex = Keer Mex gegooid
leaderboard-scope = { $scope ->
    [channel] dit kanaal
   *[server] deze server
}
leaderboard-period = { $period ->
    [month] deze maand
    [week] deze week
   *[all] aller tijden
}
leaderboard-title = 🏆 { $stat } · { $scope } · { $period }
leaderboard-empty = Hier staat nog niemand op de lijst: speel een potje!
leaderboard-your-place = Jouw plek
leaderboard-not-ranked = nog niet op de lijst
leaderboard-page = pagina { NUMBER($page, useGrouping: 0) }/{ NUMBER($pages, useGrouping: 0) }
leaderboard-page-minimum = pagina { NUMBER($page, useGrouping: 0) }/{ NUMBER($pages, useGrouping: 0) } · minstens { $minimum } voor de lijst
leaderboard-page-gone = Die pagina bestaat niet meer.
# The /stats card: the image (drawn in DejaVu Sans, bot/present/fonts/) and its text
# version show every letter as written.

card-wins = { $n ->
    [one] { $n } gewonnen
   *[other] { $n } gewonnen
}
card-headline = { $games } · { $wins } · winstpercentage { $rate }
card-headline-no-rate = { $games } · { $wins } · nog geen winstpercentage
card-taken = gedronken
card-caused = veroorzaakt
card-lives-lost = levens verloren
card-rounds-lost = rondes verloren
card-bluffs = gebluft / betrapt
card-calls = bullshit geroepen / terecht
card-luck = Mex gegooid
card-favourite = favoriete bod
card-nemesis = aartsvijand
card-rolls = worpen
card-nothing = niets
card-none-yet = nog geen
card-number = { $n }
card-pair = { $a } / { $b }
card-luck-value = { $n } ({ NUMBER($expected, minimumFractionDigits: 1, maximumFractionDigits: 1) } verwacht)
card-times = { $what } ({ $n }x)
card-footer = geluk: hoe vaak je Mex gooide, tegen de 2 op 36 die je mocht verwachten
card-unknown-player = speler { $id }
history-title = 📜 Laatste rondes hier
history-replays = ▶️ Herhalingen: { $links }
history-replay = [spel { $n }]({ $url })
history-empty = Hier is nog geen ronde gespeeld.
history-void = `#{ NUMBER($round, useGrouping: 0) }` { $preset }: telt niet, niemand betaalde
history-lost = `#{ NUMBER($round, useGrouping: 0) }` { $preset }: { $p } verloor ({ $reason ->
        [call] na bullshit
        [fold] gaf op
        [timer] tijd op
        [lowest] laagste worp
        [end_early] vroegtijdig beëindigd
       *[other] { $reason }
    })
history-penalty = { $p } { $amount }: { $why }
history-more = en nog { $more }
reset-needs-permission = Je hebt de machtiging Server beheren nodig om de ranglijst te wissen.
reset-sure = Dit wist voorgoed de tellers, favoriete biedingen, aartsvijanden, ratings, prestaties, seizoenen en kampioenen van deze server (de rondegeschiedenis blijft). Zeker weten?
reset-not-yours = Dit is niet jouw knop.
reset-confirm = Ja, wis de ranglijst
reset-cancel = Annuleren
reset-done = { $n ->
    [one] Ranglijst gewist ({ $n } regel weg).
   *[other] Ranglijst gewist ({ $n } regels weg).
}
reset-nothing = Er is niets gewist.

## League: ratings, seasons and the achievements list (/season, /achievements, the final
## standing, the card). Achievement names and explanations are in the last section.

command-season = seizoen
command-season-desc = Dit seizoen: dagen te gaan, de top en eerdere kampioenen
option-season-length = lengte
option-season-length-desc = Alleen Server beheren: een seizoen duurt een maand of een kwartaal
choice-quarter = kwartaal
command-achievements = prestaties
command-achievements-desc = Behaalde en nog open prestaties, en hoe zeldzaam elk hier is
option-achievements-user = speler
option-achievements-user-desc = Wiens prestaties (leeg: de jouwe)
stat-rating = Rating
stat-rating_bluff = Rating (blufspellen)
stat-rating_open = Rating (open worpen)
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
    [bluff] Blufrating begint
    [open] Rating (open worpen) begint
   *[all] Ratings beginnen
} op 1.000
rating-rests = ⏸️ Ratings rusten tussen spelers die al { $n } potjes voor de rating samen speelden in 24 uur.
rating-provisional = ? = voorlopig (nog geen 10 potjes)
leaderboard-page-rating = pagina { NUMBER($page, useGrouping: 0) }/{ NUMBER($pages, useGrouping: 0) } · { rating-provisional }
standing-rating = { $rating } ({ $change })
achievement-earned = 🏅 { $p }: { $names }
family = { $family ->
    [bluff] Blufspellen
   *[open] Open worpen
}
season-name = { $quarter ->
    [0] { $month ->
        [1] januari
        [2] februari
        [3] maart
        [4] april
        [5] mei
        [6] juni
        [7] juli
        [8] augustus
        [9] september
        [10] oktober
        [11] november
       *[12] december
    } { NUMBER($year, useGrouping: 0) }
   *[other] Q{ $quarter } { NUMBER($year, useGrouping: 0) }
}
season-title = 🏆 Seizoen: { $season }
season-days-left = { $days ->
    [one] Vandaag is de laatste dag.
   *[other] Nog { $days } dagen.
}
season-length = { $length ->
    [quarter] Een seizoen duurt een kwartaal.
   *[month] Een seizoen duurt een kalendermaand.
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
season-nobody-yet = Dit seizoen nog geen potjes voor de rating.
season-past = Eerdere kampioenen
season-past-line = **{ $season }** · { $champions }
season-champion = { $family ->
    [bluff] bluffen
   *[open] open worpen
}: { $p } { $rating }
season-length-set = Klaar: een seizoen duurt nu een { $length ->
    [quarter] kwartaal
   *[month] maand
}. Dit seizoen: { $season }.
season-needs-permission = Je hebt de machtiging Server beheren nodig om de lengte van een seizoen te wijzigen.
check-what-season-length = De lengte van een seizoen
check-what-web-pages = De instelling pagina's
season-over = 🏆 **{ $season }** zit erop. Kampioenen:
season-over-family = { $family }: { $champions }
season-over-next = Het nieuwe seizoen begint nu, ieders rating gaat mee: /{ command-season }
achievements-title = 🏅 { $name } · { $earned } van { $total }
achievements-earned = 🏅 **{ $name }** · { $rarity }
achievements-open = ▫️ **{ $name }**: { $how } · { $rarity }
achievements-open-unexplained = ▫️ **{ $name }** · { $rarity }
achievements-rarity = { $holders ->
    [0] nog niemand
   *[other] { $percent }% van de spelers
}
achievements-none = Hier zijn nog geen prestaties.
card-rating = rating · { $family ->
    [bluff] bluffen
   *[open] open worpen
}
card-achievements = prestaties
card-achievements-value = { $n } · zeldzaamst: { $rarest }

## Help (/help): one short private page, in the reader's language

command-help = hulp
command-help-desc = Wat het spel is en welke commando's je nu hebt
option-help-ruleset = variant
option-help-ruleset-desc = De commando's van een variant; leeg voor het spel in dit kanaal
help-title = 🎲 Hulp
help-title-preset = 🎲 Hulp · { $preset }
help-game = Twee stenen, hoogste eerst gelezen (een 6 en een 4 is 64); dubbels gaan daarboven, en 21 gaat boven alles.
    Blufspellen: je gooit onder de beker, doet een bod, en de volgende gelooft je of tilt de beker op.
    Open worpen: iedereen gooit zichtbaar, en de laagste worp betaalt.
help-moves-title = Jouw zetten hier (de knoppen op het beurtbericht doen hetzelfde)
help-lobby-title = Hier loopt nog geen spel: begin er een
help-command = /{ $command }: { $what }
help-more = Alle regels: /{ command-rules } { option-rules-ruleset }:<naam>

## Rules (/rules): one page per rule set, each rule a line of its -lines message

rules-overview-title = Mexen met twee stenen: vijf manieren
rules-overview-preset = { $preset } · { $style }
rules-overview-footer = Details: /{ command-rules } { option-rules-ruleset }:<naam>
rules-roll-order-title = Volgorde van de worpen
rules-roll-order = Twee stenen, hoogste eerst gelezen (een 6 en een 4 is 64). Van laag naar hoog: 31 (waar die telt), 32, 41 … 54, 61 … 65, dan de dubbels 11 tot 66, en 21 bovenaan.
rules-fair-cup-title = Speelt de bot vals? Check de beker
rules-fair-cup = Gaan de stenen onder de beker, dan worden ze verzegeld: de SHA-256 van `hoog-laag:salt` (bijvoorbeeld `6-2:` en een willekeurige salt). De knop **Beker** op het beurtbericht toont je het zegel (en je eigen stenen, als jij gooide). Gaat de beker omhoog, dan toont de knop Beker bij het onthullen de stenen en de salt: hash die tekst zelf (`printf '6-2:<salt>' | sha256sum`, of elke SHA-256-tool). Klopt het met het zegel, dan lagen de stenen vast voordat iemand antwoordde en zijn ze nooit verwisseld. De stenen komen uit de cryptografische toevalsbron van het besturingssysteem.
rules-table-title = Aan elke tafel
rules-table-lines = Alleen wie aan de beurt is, kan een zet doen.
    Elke variant kan neutrale punten tellen in plaats van slokken.
    Eén spel per kanaal; een spel heeft minstens 2 spelers nodig.
rules-computers-title = Computerspelers (/{ command-addbot } in een lobby)
rules-computer = { $name }: { $blurb }.
rules-style = { $family ->
    [bluff] Bluffen
   *[open] Open worpen
}
rules-footer = { $style } · variant: { $preset }
rules-mexican-title = Mexican — de huisregels van de kroeg
rules-mexican-summary = Bluf over een verborgen worp; wie bij bullshit verliest, drinkt een slok, een shotje of een adtje.
rules-mexican-lines = Je gooit in het geheim: alleen jij ziet je stenen. Dan doe je een bod en geef je de beker door.
    Elk bod moet het huidige bod evenaren of verslaan. Gelijk mag, en 21 na 21 telt als gelijk.
    De volgende speler gelooft het en pakt de beker (en moet gooien), of roept bullshit en tilt hem op.
    Bullshit: stenen lager dan het bod, dan verliest wie het zei; gelijk of hoger, dan verliest wie bullshit riep. Die begint de volgende ronde.
    Een 3-1 is Proost: iedereen aan tafel, de gooier ook, neemt een slok en de gooier gooit opnieuw. Het huidige bod moet nog steeds gehaald worden.
    Kun of wil je niet over het bod heen? Geef op voor 1 slok; de stenen blijven ongezien en de volgende begint opnieuw.
    Wat de verliezer drinkt hangt van het bod af: een gewone worp is 1 slok, een dubbel 1 shotje, een Mex (21) een adtje.
    Geen vast einde: de host stopt het spel. Met de optie levens (4 elk) kost elke verloren ronde ook een leven en wint de laatste die overblijft.
rules-dollar-title = Dollar — bluffen om levens
rules-dollar-summary = Bluffen zoals bij Mia, waarbij elke verloren bullshit een van je vier levens kost.
rules-dollar-lines = Iedereen heeft 4 levens, één per hoek van een dollarbiljet. Kwijt je de laatste, dan lig je eruit; wie als laatste overblijft, wint.
    31 is de laagste worp en 21 (de Mex) de hoogste.
    Gooi in het geheim, doe een bod, geef de beker door. Elk bod moet echt hoger zijn dan het vorige.
    Na een bod van 21 moet wie de beker pakt opnieuw gooien en mag alleen 21 zeggen.
    Pak je de beker, dan mag je gooien, of hem ongezien doorgeven met een hoger bod over stenen die je niet zag (nooit na een 21).
    Blind gooien: gooi zonder te kijken. De bot laat je die stenen niet zien.
    Bullshit: stenen lager dan het bod, dan verliest wie het zei een leven; gelijk of hoger, dan wie bullshit riep. Die begint de volgende ronde.
rules-mexen-title = Mexen — open worpen
rules-mexen-summary = Iedereen gooit open; de laagste worp drinkt, dubbel voor elke Mex.
rules-mexen-lines = Wie de ronde begint gooit tot 3 keer en mag na elke worp stoppen. Dat aantal worpen is in deze ronde de limiet voor iedereen.
    Alleen je laatste worp telt, ook als een eerdere beter was. Een Mex (21) beëindigt je beurt meteen.
    Een 3-1 telt niet: deel een slok uit aan een andere speler en gooi opnieuw; die worp telt niet mee voor je limiet.
    Heeft iedereen gegooid, dan verliest de laagste worp. Bij gelijkstand gooien die spelers over, één worp elk, tot er één de laagste is.
    De verliezer drinkt 1 slok, verdubbeld voor elke Mex deze ronde (2, 4, …), maar nooit meer dan 4.
    Vroegtijdig beëindigen: zolang niemand een Mex gooide, mag je na je eigen worp de ronde beëindigen en de enkele straf zelf nemen.
    Levens als optie (6 elk): verliezen kost 1 leven, of 2 per Mex. De verliezer begint de volgende ronde.
rules-mexicanen-title = Mexicanen — open worpen om levens
rules-mexicanen-summary = Open worpen met 6 levens elk; de laagste worp verliest levens, meer als er een Mex viel.
rules-mexicanen-lines = Iedereen begint met 6 levens. Beurten gaan als bij Mexen: de beginner bepaalt het aantal worpen (1 tot 3) en alleen je laatste worp telt.
    Geteld in getallen: dubbels zijn 100 tot 600, Mex (21) is 1000, en 31 is gewoon de laagste worp.
    De laagste worp verliest 1 leven, of 2 voor elke Mex in de ronde, extra rondes meegerekend.
    Zijn meerdere spelers samen laagste, dan spelen zij extra rondes van één worp elk.
    Vroegtijdig beëindigen: zolang niemand een Mex gooide, mag je na je eigen worp de ronde beëindigen; dan verlies alleen jij 1 leven.
    Wie als eerste op 0 levens staat verliest, en daar eindigt het spel (optie: doorspelen tot er één over is).
    De verliezer begint de volgende ronde.
rules-mexico-title = Mexico — met pot, Ridder en Elleboog
rules-mexico-summary = Open worpen voor 2 tot 8 spelers, met een groeiende pot, een Ridder en de Elleboog.
rules-mexico-lines = 2 tot 8 spelers. De beginner gooit tot 3 keer en bepaalt de limiet voor iedereen; alleen je laatste worp telt.
    Een steen houden: een losse 1 of 2 (de andere steen geen van beide) mag je één keer per beurt houden terwijl je de andere opnieuw gooit. Dat kost een worp.
    De pot begint elke ronde op 1. Elke dubbel telt de waarde van één van zijn stenen erbij.
    Mexico (21) beëindigt je beurt: een pot van 1 springt naar 8, anders verdubbelt hij. Elke volgende Mexico verdubbelt hem weer.
    De Ridder: wie 1-1 gooit wordt Ridder en de oude Ridder neemt een slok. Gooit de Ridder het zelf, dan wijst hij een nieuwe Ridder aan.
    Gooit iemand een dubbel van 2-2 tot 6-6, dan drinkt de Ridder zoveel slokken als één steen aangeeft.
    Elleboog (3-1): geen uitslag. Je beurt begint opnieuw, met al je worpen.
    3-2 vastzetten: zolang je nog worpen hebt, mag een ander je 3-2 vastzetten voor je opnieuw gooit; dan blijft je 3-2 staan.
    De laagste worp drinkt de hele pot; bij gelijkstand wordt opnieuw gegooid. De verliezer begint de volgende ronde. Er is geen winnaar: speel tot je stopt.

## Engine refusals (bot/engine/errors.py raises them by key): one error-<key> each, as in en.ftl.
## $claim, $standing, $roll are rolls in the table's words; $valid, $presets, $options,
## $spellings are ready-made lists; $player is a mention.

# the table: lobby, seats, host
error-game-over = Dit spel is voorbij.
error-already-over = Dit spel is al voorbij.
error-not-started = Het spel is nog niet begonnen.
error-already-started = Dit spel is al begonnen.
error-not-in-game = Je doet niet mee aan dit spel.
error-not-your-turn = Niet jouw beurt: { $player } is aan de beurt.
error-already-in-game = Je doet al mee.
error-out-of-game = Je ligt eruit.
error-table-full = De tafel is vol ({ $max_players ->
    [one] maximaal { $max_players } speler
   *[other] maximaal { $max_players } spelers
}).
error-lives-game-closed = Een lopend spel om levens neemt geen nieuwe spelers.
error-host-starts = Alleen de host kan het spel starten.
error-host-ends = Alleen de host kan het spel stoppen.
error-too-few-players = { $min_players ->
    [one] Een spel heeft minstens { $min_players } speler nodig.
   *[other] Een spel heeft minstens { $min_players } spelers nodig.
}
error-no-person-seated = Er moet minstens één mens aan tafel zitten.
error-computers-in-lobby = Computerspelers schuiven aan in de lobby, voor het spel begint.
error-host-seats-computers = Alleen de host zet computerspelers erbij of haalt ze weg.
error-computer-already-seated = Die computerspeler zit al aan tafel.
error-no-such-computer = Die computerspeler zit niet aan tafel.
# moves as values: buttons, and what a move carries
error-stale-button = Die knop is van een eerdere zet; gebruik het laatste bericht.
error-button-not-ours = Die knop hoort niet bij een spel van deze bot.
error-unknown-move = Onbekende zet '{ $act }'.
error-claim-not-a-roll = Dat bod is geen worp.
error-choice-names-no-player = Die keuze noemt geen speler.
error-keep-one-or-two = Je kunt alleen een losse 1 of 2 houden.
error-move-takes-no-value = Bij die zet hoort geen waarde.
error-needs-claim = Voor deze zet is een bod nodig.
error-needs-die = Voor deze zet moet je zeggen welke steen je houdt.
error-needs-player = Voor deze zet is een speler nodig.
error-needs-computer = Voor deze zet is een computerspeler nodig.
# typed claims
error-not-a-roll = { $typed } is geen worp. Typ bijvoorbeeld: { $spellings }.
# bluffing under the cup
error-no-cup = In { $preset } is er geen beker om mee te bluffen.
error-three-one-no-result = Een 3-1 telt niet in { $preset }: die ligt nooit onder de beker. Zeg een van: { $valid }.
error-claim-too-low = Met { $claim } haal je het huidige bod van { $standing } niet. Nu geldig: { $valid }.
error-no-claim-now = Je hoeft nu niets te zeggen.
error-blind-off = Blind gooien staat uit in dit spel.
error-claim-after-roll = Je hebt gegooid: doe nu je bod (of geef op).
error-social-reroll-open = Na Proost gooi je opnieuw, met open ogen.
error-roll-first = Eerst gooien.
error-answer-first = Eerst geloven of bullshit roepen.
error-no-claim-to-answer = Er wacht geen bod op antwoord.
error-not-your-answer = Niet jouw beurt: het bod ging naar { $player }.
error-pass-unrolled-off = Na geloven moet je gooien: ongezien doorgeven staat uit.
error-accept-before-pass = Geloof eerst het bod, geef dan de beker door.
error-roll-after-top = Na een bod van { $claim } moet je opnieuw gooien.
error-fold-off = Opgeven staat uit in dit spel.
error-fold-needs-claim = Opgeven kan pas als je tegen een bod in hebt gegooid.
# open rolls
error-open-roll-only = Die zet hoort bij de open spellen, niet bij { $preset }.
error-every-roll-open = Elke worp is open in dit spel.
error-hand-out-first = Deel eerst je slok uit (je gooide 3-1).
error-name-knight-first = Wijs eerst de volgende Ridder aan.
error-no-rolls-left = Je worpen zijn op: laat staan, of sluit de ronde af.
error-no-stand-in-rolloff = Bij overgooien kun je niet laten staan: gooi.
error-nothing-to-stand-on = Gooi eerst: je hebt nog geen worp om te laten staan.
error-keep-off = Een steen houden staat uit in dit spel.
error-cannot-keep = Je houdt alleen een losse 1 of 2 naast een 3-6, één keer per beurt, met nog een worp over.
error-keep-which = Je kunt alleen de { $die } houden.
error-end-early-off = Een ronde vroegtijdig beëindigen staat uit in dit spel.
error-rolloff-runs-on = Overgooien kun je niet vroegtijdig beëindigen.
error-top-rolled = Er is al een { $roll } gegooid: deze ronde stopt niet vroeg.
error-own-roll-first = Gooi eerst zelf een worp die telt, dan pas de ronde beëindigen.
error-nothing-to-tap = Er is nu geen 3-2 om vast te zetten.
error-tap-own = Je eigen 3-2 kun je niet vastzetten.
error-no-sip = Je hebt geen slok om uit te delen.
error-sip-to-other = Geef de slok aan een andere speler in het spel.
error-no-knight = Je hebt geen Ridder aan te wijzen.
error-knight-other = Wijs een andere speler in het spel aan als Ridder.
# rule sets and house rules
error-unknown-preset = Onbekende variant '{ $preset }'. Kies uit: { $presets }.
# The bot arena's round (bot/engine/maexchen.py); its server answers bots in the protocol's
# own words, so these reach only its log and tests.
error-arena-seats = Een arenaronde heeft minstens twee bots nodig, niet { $players }.
error-arena-not-a-roll = { $dice } is geen paar stenen.
error-arena-fault = Een fout { $reason } hoort niet bij de stap { $stage }.
error-arena-stage = Die zet hoort bij de stap { $wanted }, niet { $stage }.
error-unknown-options = Onbekende optie(s): { $options }.
error-three-one-not-allowed = Een 3-1 kan geen { $three_one ->
    [social] Proost
    [handout] uitdeelslok
    [elbow] Elleboog
   *[other] '{ $three_one }'
} zijn in een { $family ->
    [bluff] blufspel
   *[other] spel met open worpen
}.
error-lives-range = Levens moeten tussen 1 en 99 liggen.
error-lives-required = Deze variant speelt om levens: levens kunnen niet uit.
error-rolls-range = Worpen per beurt moeten tussen 1 en 6 liggen.
error-base-cap-range = De basis en het maximum moeten minstens 1 zijn.
error-player-limits = Spelerslimieten moeten voldoen aan 2 <= min <= max <= 25.
error-turn-timer-range = De bedenktijd is 0 (uit) tot { $max_seconds } seconden, niet { $seconds }.
error-units-first = Eenheden zijn 'sips' of 'points'; first is 'host' of 'random'.

## Rechten die de bot in een kanaal mist (namen zoals Discord ze toont)
perm-view_channel = Kanaal bekijken
perm-send_messages = Berichten versturen
perm-send_messages_in_threads = Berichten versturen in threads
perm-embed_links = Links insluiten
perm-read_message_history = Berichtgeschiedenis lezen
perm-without-view_channel = Ik kan hier niets posten
perm-without-send_messages = Ik kan hier niets posten
perm-without-send_messages_in_threads = Ik kan in deze thread niets posten
perm-without-embed_links = Ik kan de tafel hier niet laten zien
perm-without-read_message_history = Ik kan hier na een herstart oude knoppen niet opruimen
perm-missing = { $without }: geef me { $names } in dit kanaal.
perm-missing-thread = { $without }: geef me { $names } in het kanaal van deze thread.

## Refusals worded outside the engine: the tables (bot/game/tables.py), a command that failed
## (bot/runtime/client.py) and values no real client sends (bot/adapter/checks.py).
no-game-here = Er loopt geen spel in dit kanaal. Begin er een met /{ command-newgame }.
channel-busy = In dit kanaal loopt al een spel: doe mee of stop het met /{ command-endgame }.
command-no-permission = Je hebt niet het recht dat dit commando vraagt.
command-check-failed = Dit commando kun je hier niet gebruiken.
command-bad-value = Ik kon een van je waarden niet lezen. Kies hem nog eens.
command-bad-options = Dit commando kwam met opties die ik niet ken. Typ het nog eens.
command-failed = Er ging bij mij iets mis. Met /{ command-table } zie je hoe het spel ervoor staat.
check-whole-number = { $what }: kies een heel getal van { $low } tot en met { $high }.
check-one-of = { $what }: kies een van { $allowed }.
check-text = { $what }: hoogstens { $limit } tekens tekst.
check-what-ruleset = Variant
check-what-lives = Levens
check-what-units = Eenheden
check-what-turn-timer = Beurttijd
check-what-language = Taal
check-what-computer = Computerspeler
check-what-keep = Steen om te houden
check-what-stat = Statistiek
check-what-scope = Bereik
check-what-period = Periode
check-what-rounds = Aantal rondes

## Achievements: achievement-<key> is the name, achievement-<key>-how says how to earn it
## (bot/league/achievements.py lists the keys).
achievement-first_win = Eerste winst
achievement-first_win-how = Win een potje.
achievement-ten_wins = Tien keer gewonnen
achievement-ten_wins-how = Win 10 potjes.
achievement-flawless = Foutloos
achievement-flawless-how = Win een potje met levens door iemand eruit te gooien, zonder zelf een leven te verliezen.
achievement-last_life = Aan een zijden draadje
achievement-last_life-how = Win een potje nadat je op je laatste leven stond.
achievement-comeback = Comeback
achievement-comeback-how = Win een potje nadat je 3 levens of meer achterstond.
achievement-ada_slayer = Ada wie?
achievement-ada_slayer-how = Versla Expert Ada één tegen één.
achievement-bluff_hunter = Blufjager
achievement-bluff_hunter-how = Betrap 3 bluffen in één potje.
achievement-lie_detector = Leugendetector
achievement-lie_detector-how = Roep 4 keer **bullshit** in één potje en heb steeds gelijk.
achievement-mex_exposed = Nep-Mex betrapt
achievement-mex_exposed-how = Roep **bullshit** bij een Mex die er niet ligt.
achievement-ghost_mex = Spook-Mex
achievement-ghost_mex-how = Zeg Mex zonder Mex onder de beker en word geloofd.
achievement-blind_faith = Blind vertrouwen
achievement-blind_faith-how = Doe een bod op stenen die je niet zag, krijg **bullshit** te horen en heb toch gelijk.
achievement-triple_mex = Drie keer Mex
achievement-triple_mex-how = Gooi drie keer Mex in één potje.
achievement-social = Proost!
achievement-social-how = Gooi een Proost: de 3-1 waarop iedereen een slok neemt.
achievement-bartender = Barman
achievement-bartender-how = Gooi in één potje drie keer 3-1 en deel elke keer de slok uit.
achievement-double_knight = Dubbel geridderd
achievement-double_knight-how = Word twee keer Ridder in één potje.
achievement-tapper = Vastgezet!
achievement-tapper-how = Zet de 3-2 van een ander vast.
achievement-marathon = Marathon
achievement-marathon-how = Speel een potje van 30 rondes of meer uit.
achievement-full_table = Volle tafel
achievement-full_table-how = Speel aan een tafel met 6 of meer spelers.
achievement-dry_run = Broodnuchter
achievement-dry_run-how = Speel 10 rondes of meer uit zonder één slok terwijl anderen drinken.
achievement-tourist = Toerist
achievement-tourist-how = Speel elke variant.
achievement-all_rounder = Allrounder
achievement-all_rounder-how = Win in elke variant.
achievement-centurion = Vaste klant
achievement-centurion-how = Speel 100 potjes.

## The web companion (README, Web companion): /web and the pages it links to.

command-web = web
command-web-desc = De ranglijsten, profielen en herhalingen van deze server op het web (Server beheren)
option-web-pages = paginas
option-web-pages-desc = Zet de webpagina's aan of uit (leeg: toon de link)
choice-on = aan
choice-off = uit
web-needs-permission = Alleen iemand met Server beheren kan de webpagina's aan- of uitzetten.
web-not-set-up = Deze bot heeft geen webpagina's: de beheerder heeft WEB_URL niet ingesteld.
web-on = 🌐 De pagina's van deze server: { $link }
    Iedereen met de link ziet de ranglijsten, profielen en afgelopen spellen. `/{ command-web } { option-web-pages }:{ choice-off }` haalt ze weg.
web-off = De webpagina's staan uit: de link toont niets meer.
web-is-off = De webpagina's van deze server staan uit. `/{ command-web } { option-web-pages }:{ choice-on }` zet ze online.
web-replay-link = 🎬 Herhaling: { $link }
web-site = Mexen
web-leaderboards = Ranglijsten
web-other-boards = Andere ranglijsten
web-season = Seizoen
web-games = Laatste spellen
web-no-games = Nog geen afgelopen spellen.
web-replay = Herhaling
web-player = Speler …{ $tag }
web-ratings = Ratings
web-rating-history = Verloop van de rating
web-achievements = Prestaties
web-card = Statistieken
web-step = Zet { NUMBER($n, useGrouping: 0) } van { NUMBER($total, useGrouping: 0) }
web-play = ▶ Afspelen
web-pause = ⏸ Pauze
web-back = ◀
web-next = ▶
web-round = Ronde { NUMBER($round, useGrouping: 0) }
web-to-move = { $p } is aan zet
web-claim = Bod: { $claim } van { $p }
web-cup-down = 🥤 Beker dicht, verzegeld
web-cup-lifted = 🥤 Beker gelicht: { $dice }
web-seal-check = Controleer het zegel
web-seal-ok = ✅ Het zegel klopt: deze stenen lagen al die tijd onder de beker.
web-seal-bad = ❌ Het zegel klopt niet.
web-seal-how = Het zegel is sha256 van deze tekst:
web-player-col = Speler
web-lives-col = Levens
web-taken-col = Gedronken
web-out = uit
web-not-found = Niets te zien: de link klopt niet, of de pagina's van deze server staan uit.
web-footer = Pagina's van de Mexen-bot, in de taal van je browser.
web-version = versie { $version }
web-seal-down = Het zegel is sha256 van de stenen en een geheim zout: het staat er zodra de beker neergaat, en de tekst die het hashte zodra de beker wordt opgetild.
web-game-line = { $date } · { $players }
web-game-winner = 🏆 { $winner }
web-game-no-winner = geen winnaar
web-root-title = Mexen: de pagina's van een Discord-bot
web-root-text = Deze site toont de ranglijsten, seizoenen, profielen en herhalingen van Discord-servers die met deze bot mexen. De pagina's van een server zijn alleen te zien via zijn link: een beheerder zet ze aan met /{ command-web } in Discord en deelt de link. Zonder link is hier niets te zien.
preset-name-mexican = Blufmexen
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
