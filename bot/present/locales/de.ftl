# The bot's German (Deutsch). The same messages with the same variables as en.ftl, plus one
# error-<key> per engine refusal (bot/engine/errors.py raises them by key); see README, Languages.
# Variables: $p, $by, $claimer... are players, already shown as mentions or names;
# $roll, $claim, $cup are rolls already in the table's words; $n, $hits... are numbers.
#
# Written as people talk at the Kneipe table (Mäxchen/Meiern), informal "du", short lines.
# Glossary, keep it consistent:
#   cup = Becher (unterm Becher); roll = würfeln, a roll = Wurf (Würfe); die = Würfel
#   claim = ansagen, Ansage; accept = glauben; call bullshit = aufdecken (button "Aufdecken!")
#   bluff = bluffen, Bluff; pass on unseen = ungesehen weitergeben; blind = blind
#   fold = aufgeben; stand = stehen lassen ("lässt **54** stehen"); keep a die = (einen Würfel) halten
#   end round early = Runde vorzeitig beenden (in every rule set)
#   sip = Schluck/Schlucke; shot = Kurzer/Kurze ("trinkt einen Kurzen"); chug = exen ("muss exen",
#   in tallies "1× geext", stat "Mal geext"); hand out = verteilen
#   life = Leben; point = Punkt/Punkte; game = Spiel/Spiele; round = Runde; move/turn = Zug
#   host = Host; table = Tisch; lobby = Lobby; rematch = Revanche; pot = Pott
#   roll-off = Stechen; Knight = Ritter; 3-1 Social = Prost; Elbow = Ellbogen
#   TAP = KLOPFEN (klopfen); STUCK / lock a 3-2 = festnageln
#   rolls: 65 = "fünfundsechzig" (high die as tens), doubles = Einerpasch ... Sechserpasch,
#   the 2-1 = Mäxchen (for Mexican, Mex and Mexico alike)
#   claimer = Ansager; caller = Aufdecker; drinks are drunk ("trinkt", "getrunken"), a chug
#   "muss exen", points are "kriegt", lives "verliert"
#   stats: taken = getrunken, caused = ausgeteilt; leaderboard = Rangliste; rule set = Regelwerk
#   seal = Siegel; lift the cup = lüften; button = Button; computer player = Computerspieler
#   Rule set names and computer players' names stay English.
#   Command names: lower case, words joined by hyphens (neues-spiel); umlauts as written
#   (würfeln): Discord allows lower-case Unicode letters.

## Rolls in words (mexican and dollar speak in words; the Dutch presets in numbers)

roll-31 = einunddreißig
roll-32 = zweiunddreißig
roll-41 = einundvierzig
roll-42 = zweiundvierzig
roll-43 = dreiundvierzig
roll-51 = einundfünfzig
roll-52 = zweiundfünfzig
roll-53 = dreiundfünfzig
roll-54 = vierundfünfzig
roll-61 = einundsechzig
roll-62 = zweiundsechzig
roll-63 = dreiundsechzig
roll-64 = vierundsechzig
roll-65 = fünfundsechzig
roll-11 = Einerpasch
roll-22 = Zweierpasch
roll-33 = Dreierpasch
roll-44 = Viererpasch
roll-55 = Fünferpasch
roll-66 = Sechserpasch
top-mexican = Mäxchen
top-mex = Mäxchen
top-mexico = Mäxchen
three-one-social = Prost
three-one-handout = 3-1, einen Schluck verteilen
three-one-elbow = Ellbogen

## Amounts

amount = { $unit ->
    [sip] { $n ->
        [one] { $n } Schluck
       *[other] { $n } Schlucke
    }
    [shot] { $n ->
        [one] { $n } Kurzer
       *[other] { $n } Kurze
    }
    [chug] { $n }× geext
    [life] { $n } Leben
    [point] { $n ->
        [one] { $n } Punkt
       *[other] { $n } Punkte
    }
   *[game] { $n ->
        [one] { $n } Spiel
       *[other] { $n } Spiele
    }
}
# A drink one player hands another (penalty-handed): a sip in words, as the table says it.
amount-handed = { $unit ->
    [sip] { $n ->
        [one] einen Schluck
       *[other] { $n } Schlucke
    }
   *[other] { amount }
}
# A capped loss of lives: what was lost, and how many were due (penalty-lives).
amount-last-lives = { $n ->
    [one] das letzte Leben ({ $due } fällig)
   *[other] die letzten { $n } Leben ({ $due } fällig)
}
# A drink as a penalty line says it after the player's name, verb included (accusative:
# "trinkt einen Kurzen"; a chug "muss exen"; points are "kriegt").
amount-drunk = { $unit ->
    [sip] trinkt **{ $n ->
        [one] einen Schluck
       *[other] { $n } Schlucke
    }**
    [shot] trinkt **{ $n ->
        [one] einen Kurzen
       *[other] { $n } Kurze
    }**
    [chug] muss **{ $n ->
        [one] exen
       *[other] { $n }× exen
    }**
   *[point] kriegt **{ $n ->
        [one] einen Punkt
       *[other] { $n } Punkte
    }**
}
list-and = { $a } und { $b }
list-or = { $a } oder { $b }
list-join = { $a }, { $b }
nobody = keiner
a-computer = ein Computerspieler

## How ending a round early is said: one name in every rule set

end-early-verb = beendet die Runde
end-early-choice = die Runde vorzeitig beenden
end-early-button = Runde vorzeitig beenden
end-early-cause = hat die Runde vorzeitig beendet

## Odds of a claim on a fresh roll

odds-every = jeder neue Wurf schafft { $roll }
odds-rare = ein neuer Wurf schafft das nur in { $hits } von { $out } Fällen
odds-likely = ein neuer Wurf schafft das in { $hits } von { $out } Fällen, also fast immer
odds-plain = ein neuer Wurf schafft das in { $hits } von { $out } Fällen

## Why a penalty was paid

cause-caught = { $claim } geblufft, unterm Becher lag { $cup }
cause-wrong-call = { $claim } stimmte, trotzdem aufgedeckt
cause-folded = bei { $claim } ausgestiegen
cause-social = Prost
cause-timer = Zeit abgelaufen
cause-handed-out = verteilt von { $by }
cause-knight-one-one = Ritter, bei 1-1
cause-knight-double = als Ritter, wegen { $die ->
    [2] Zweierpasch
    [3] Dreierpasch
    [4] Viererpasch
    [5] Fünferpasch
   *[6] Sechserpasch
}
cause-lowest = niedrigster Wurf ({ $roll })
cause-lowest-mexes = niedrigster Wurf ({ $roll }), { $mexes }× { $top }
cause-tied-left = Letzter beim Gleichstand
cause-tied-left-mexes = Letzter beim Gleichstand, { $mexes }× { $top }
cause-pot = der Pott, niedrigster Wurf ({ $roll })
cause-pot-tied-left = der Pott, Letzter beim Gleichstand

## What a move did: one line per event

joined = { $p } spielt mit.
waiting = { $p } steigt in der nächsten Runde ein.
seated = { $p } setzt sich dazu.
left = { $p } ist gegangen.
left-queue = { $p } steigt doch nicht ein.
left-game = { $p } hat das Spiel verlassen.
left-timeouts = { $p } hat zweimal den Zug verpasst und verlässt den Tisch.
out = { $p } ist raus.
out-no-lives = 💀 { $p } hat keine Leben mehr.
out-left = { $p } hat das Spiel verlassen und ist raus.
out-timeouts = { $p } hat zweimal den Zug verpasst und ist raus.
host = { $p } ist jetzt Host.
started = 🎲 Los geht's!
round-started = **Runde { $round }**
rolled-blind = { $p } würfelt blind unterm Becher: keiner hat die Würfel gesehen.
rolled-under-cup = { $p } würfelt unterm Becher.
rolled-rolloff = { $p } würfelt im Stechen **{ $roll }**.
rolled-kept = { $p } hält die { $die } und würfelt **{ $roll }** (Wurf { $n }).
rolled-again = { $p } würfelt **{ $roll }** (Wurf { $n }).
rolled = { $p } würfelt **{ $roll }**.
social = { $p } würfelt 3-1: **Prost**! Alle trinken einen Schluck, dann würfelt { $p } nochmal.
handout = { $p } würfelt 3-1: darf einen Schluck verteilen und hat dann einen Freiwurf.
elbow = { $p } würfelt 3-1: **Ellbogen**! Der Zug fängt von vorne an.
claimed = { $p } sagt **{ $claim }** an.
passed = { $p } gibt den Becher ungesehen weiter und sagt **{ $claim }** an.
accepted = { $p } glaubt **{ $claim }**.
reveal-bluff = { $p } deckt bei { $claimer } auf: **{ $claim }** angesagt, **{ $cup }** unterm Becher. Bluff erwischt! ({ $odds })
reveal-true = { $p } deckt bei { $claimer } auf: **{ $claim }** angesagt, **{ $cup }** unterm Becher. **Stimmt!** ({ $odds })
penalty-handed = { $by } verteilt **{ $drunk }** an { $p }.
penalty-drunk = → { $p } { $drunk }.
penalty-drunk-why = → { $p } { $drunk }: { $why }.
penalty-lives = → { $p } verliert **{ $lives }**.
penalty-lives-why = → { $p } verliert **{ $lives }**: { $why }.
penalty-both = → { $p } { $drunk } und verliert **{ $lives }**.
penalty-both-why = → { $p } { $drunk } und verliert **{ $lives }**: { $why }.
round-void = Runde { $round } zählt nicht: keiner zahlt.
knight-none = Gerade gibt es keinen Ritter.
knight = { $p } ist der **Ritter**.
over-unplayed = 🚫 Keine Runde gespielt: Dieses Spiel zählt nicht.
over-short = 🚫 Weniger als { $n } Runden gespielt: Dieses Spiel zählt nicht.
over-timer = 🚫 Der Timer spielte für die anderen: Dieses Spiel zählt nicht.
over-loser = 💀 { $p } hat keine Leben mehr und verliert das Spiel.
over-ended = 🏁 { $p } hat das Spiel beendet.
over-ended-lead = 🏁 { $p } hat das Spiel in Führung beendet: kein Sieger.
over-empty = 🏁 Spiel vorbei: zu wenig Spieler übrig.
folded = { $p } steigt bei **{ $roll }** aus.
stood = { $p } lässt **{ $roll }** stehen.
ended-round = { $p } hat **{ $roll }** und { $verb }.
tapped = { $p } **KLOPFT**: { $roller } ist auf der 3-2 festgenagelt.
stuck = **3-2** für { $p }: jeder andere darf KLOPFEN und die 3-2 festnageln.
pot = Im Pott: **{ $pot }**.
knight-choice = { $p } würfelt 1-1 als Ritter und bestimmt den nächsten Ritter.
limit = Wurflimit in dieser Runde: **{ $limit }**.
timeout = ⏰ Bei { $p } ist die Zeit abgelaufen.
rolloff = Gleichstand beim niedrigsten Wurf: { $players } müssen ins Stechen.

## The turn message

so-far = Bisher: { $results }
scores-each = ❤️ je { $lives }
prompt-thinking = { $p } überlegt…
prompt-handout = { $p }, verteil deinen Schluck.
prompt-knight = { $p }, bestimm den nächsten Ritter.
prompt-answer = { $p }: glauben und würfeln, oder aufdecken?
prompt-claim-seen = { $p }, sag an (bluffen erlaubt).
prompt-claim = { $p }, sag an.
prompt-accepted-pass = { $p }, würfel oder gib den Becher ungesehen weiter.
prompt-accepted = { $p }, würfel.
prompt-reroll = { $p }, würfel nochmal.
prompt-roll-cup = { $p }, würfel unterm Becher.
prompt-rolloff = { $p }, würfel fürs Stechen.
prompt-your-roll = { $p }, du würfelst.
prompt-your-move = { $p }, du bist dran.
prompt-choices = { $p }: { $choices }?
choice-roll = nochmal würfeln
choice-keep = einen Würfel halten
choice-stand = stehen lassen
status-rolls-left-first = { $left ->
    [one] noch { $left } Wurf (deine Zahl gilt für alle)
   *[other] noch { $left } Würfe (deine Zahl gilt für alle)
}
status-rolls-left = { $limit ->
    [one] noch { $left } von { $limit } Wurf
   *[other] noch { $left } von { $limit } Würfen
}
reminder = { $p }, du bist dran: die Zeit läuft { $when } ab.

## Buttons and menus

button-join = Mitspielen
button-leave = Verlassen
button-start = Starten
button-roll = Würfeln
button-roll-blind = Blind würfeln
button-accept = Glauben
button-bullshit = Aufdecken!
button-fold = Aufgeben
button-stand = Stehen lassen
button-keep = Halten
button-keep-die = Die { $die } halten
button-end-round = Runde vorzeitig beenden
button-tap = KLOPFEN! (alle anderen)
button-add-computer = Computer dazu
button-accept-roll = Glauben & würfeln
button-accept-blind = Glauben & blind würfeln
button-accept-pass = Glauben & weitergeben
button-cup = Becher
button-rematch = Revanche
menu-claim = Ansagen…
menu-pass = Ungesehen weitergeben, Ansage…
menu-handout = Schluck verteilen an…
menu-knight = Nächster Ritter…

## The lobby and the end of a game

lobby-title = 🎲 { $preset } · neuer Tisch
lobby-body = Host: { $host }
    Dabei: { $seats } ({ $seated }/{ $most })
    { $rules }
    Tippe auf **Mitspielen**; der Host tippt auf **Starten**.
lobby-no-lives = ohne Leben
lobby-timer = { $seconds } s pro Zug
lobby-no-timer = ohne Zeitlimit
units-sips = Schlucke
units-points = Punkte
lobby-rematch = Revanche! { $players }: tippt auf **Mitspielen**.
lobby-computer-in = { $p } setzt sich dazu.
lobby-computer-out = { $p } hat den Tisch verlassen.
lobby-you-in = Du bist dabei.
lobby-you-out = Du hast den Tisch verlassen.
persona-expert = spielt die berechnete Strategie und merkt sich, wer blufft
persona-cautious = sagt, wenn's geht, die Wahrheit und deckt nur starke Ansagen auf
persona-bold = blufft hoch, gibt den Becher ungesehen weiter und würfelt immer weiter
persona-caller = deckt alles auf, was wackelig aussieht
final-title = Endstand
replay-link = ▶️ [Wiederholung ansehen]({ $url })
standing-out = raus
standing-lives = ❤️ { $lives }
standing-winner = 🏆 { $row }
standing-left = gegangen
standing-idle = ⏱️ nur der Timer: zählt nicht
standing-unplayed = nicht gespielt: zählt nicht

## Private answers

your-dice = 🎲 Deine Würfel: **{ $dice }** (siehst nur du).
your-blind-roll = 🙈 Blind gewürfelt: keiner, auch du nicht, hat die Würfel gesehen.
not-seen-cup = Du hast die Würfel unterm Becher nicht gesehen.
claim-below = Wähl unten deine Ansage. Bluffen ist erlaubt.
cup-sealed = 🔒 Der Becher ist versiegelt: `{ $digest }`
    Wird er gelüftet, zeigt dieser Button die Würfel und das Salt, damit du prüfen kannst, dass keiner sie verändert hat.
cup-sealed-of = 🔒 Der Becher von { $p } ist versiegelt: `{ $digest }`
    Wird er gelüftet, zeigt dieser Button die Würfel und das Salt, damit du prüfen kannst, dass keiner sie verändert hat.
cup-lifted = 🔓 Im Becher lag **{ $dice }**, versiegelt als `{ $digest }`.
    Prüf es selbst:
    ```
    { $command }
    ```
field-move = Zug
field-claim = Aktuelle Ansage
field-round = Diese Runde
field-knight = Ritter
field-pot = Pott
field-now = Jetzt
table-title-lobby = 🎲 { $preset } · Lobby
table-title = 🎲 { $preset } · Runde { $round }

## Refusals and notices outside the engine

server-only = Gespielt wird in Server-Kanälen.
no-game = In diesem Kanal läuft kein Spiel. Starte eins mit /{ command-newgame }.
game-not-here = Das Spiel ist nicht aus diesem Kanal.
game-still-on = Das Spiel läuft noch.
game-over-already = Das Spiel ist vorbei.
cup-not-here = Der Becher ist nicht aus diesem Kanal.
cup-not-lifted = Der Becher ist noch nicht gelüftet.
table-not-saved = Der Tisch konnte nicht gespeichert werden. Versuch's nochmal.
move-not-saved = Der Zug konnte nicht gespeichert werden und zählt nicht. Versuch's nochmal.
database-down = Die Datenbank ist gerade nicht erreichbar, deshalb hat sich nichts geändert. Versuch's gleich nochmal.
move-outcome-unknown = Die Datenbank hat beim Speichern deines Zugs nicht mehr geantwortet. Sobald sie wieder da ist, zeigt /{ command-table }, ob dein Zug zählt.
bot-closing = Der Bot startet neu: nichts wurde geändert. Versuch's gleich nochmal.
back-after-restart = ♻️ Der Bot wurde neu gestartet; das Spiel geht weiter.
ended-after-restart = ♻️ Der Bot wurde neu gestartet: So endete das letzte Spiel.
claim-typed = Eine Ansage tippst du als Text, z. B. 65.
peek-open = In diesem Spiel sind alle Würfe offen: schau auf den Tisch.
button-outdated = Der Button ist von einer älteren Version des Bots: nimm die neueste Nachricht.
button-not-here = Diesen Button gibt es auf dieser Nachricht (nicht mehr). Nimm die Buttons, die du siehst.
command-unknown = Diesen Befehl kenne ich nicht (mehr): er wurde umbenannt oder entfernt. Tippe /, um die aktuellen Befehle zu sehen.
menu-done = Erledigt.

## Slash commands: names (lower case, no spaces, at most 32 characters) and descriptions
## (at most 100 characters).

language-name = Deutsch
command-newgame = neues-spiel
command-newgame-desc = Einen Tisch in diesem Kanal aufmachen
option-newgame-ruleset = regelwerk
option-newgame-ruleset-desc = Nach welchen Regeln gespielt wird
option-newgame-lives = leben
option-newgame-lives-desc = Leben pro Spieler (0 = aus; leer = wie im Regelwerk)
option-newgame-units = einheit
option-newgame-units-desc = Getränke als Schlucke oder neutrale Punkte zählen
choice-sips = Schlucke
choice-points = Punkte
option-newgame-turn_timer = zugzeit
option-newgame-turn_timer-desc = Sekunden pro Zug, bevor der Bot für dich zieht (0 = aus, Standard 90)
option-newgame-language = sprache
option-newgame-language-desc = Die Sprache am Tisch (Standard: die des Servers)
command-join = mitspielen
command-join-desc = Beim Spiel in diesem Kanal mitspielen
command-leave = verlassen
command-leave-desc = Das Spiel in diesem Kanal verlassen
command-start = starten
command-start-desc = Das Spiel starten (nur Host)
command-endgame = beenden
command-endgame-desc = Das Spiel beenden (Host oder Nachrichten verwalten)
command-addbot = computer-dazu
command-addbot-desc = Einen Computerspieler an den Tisch setzen (Host, in der Lobby)
option-addbot-persona = charakter
option-addbot-persona-desc = Welcher Computerspieler (leer: der nächste)
choice-persona-cautious = Cautious Carla: { persona-cautious }
choice-persona-bold = Bold Bruno: { persona-bold }
choice-persona-caller = Calling Kees: { persona-caller }
choice-persona-expert = Expert Ada: { persona-expert }
command-removebot = computer-weg
command-removebot-desc = Einen Computerspieler rausnehmen (Host, in der Lobby)
option-removebot-persona = charakter
option-removebot-persona-desc = Welcher Computerspieler (leer: der zuletzt dazugesetzte)
command-table = tisch
command-table-desc = Den Tisch zeigen: Plätze, Leben, wer dran ist
command-roll = würfeln
command-roll-desc = Würfeln
option-roll-blind = blind
option-roll-blind-desc = Bluffspiele: würfeln, ohne hinzusehen
option-roll-keep = halten
option-roll-keep-desc = mexico: deine einzelne 1 oder 2 halten und den anderen Würfel werfen
command-claim = ansagen
command-claim-desc = Ansagen, was unterm Becher liegt
option-claim-value = wert
option-claim-value-desc = z. B. 65, 6-5, 5-5, 500, 21, mex
command-accept = glauben
command-accept-desc = Die Ansage glauben und den Becher nehmen
command-bullshit = aufdecken
command-bullshit-desc = Nicht glauben: den Becher aufdecken
command-fold = aufgeben
command-fold-desc = mexican: zugeben, dass du's nicht schlägst (1 Schluck)
command-stand = stehen-lassen
command-stand-desc = Offene Würfe: nicht mehr würfeln, dein letzter Wurf bleibt stehen
command-endround = runde-beenden
command-endround-desc = Die Runde vorzeitig beenden (du zahlst)
command-tap = klopfen
command-tap-desc = mexico: die 3-2 eines anderen festnageln (KLOPFEN)
command-handout = verteilen
command-handout-desc = mexen: deinen 3-1-Schluck an jemanden verteilen
option-handout-player = spieler
option-handout-player-desc = Wer deinen Schluck trinkt
command-knight = ritter-bestimmen
command-knight-desc = mexico: den nächsten Ritter bestimmen
option-knight-player = spieler
option-knight-player-desc = Wer der nächste Ritter wird
command-peek = gucken
command-peek-desc = Deine eigenen Würfel unterm Becher nochmal ansehen
command-leaderboard = rangliste
command-leaderboard-desc = Wer am meisten trinkt, gewinnt und blufft
option-leaderboard-stat = wertung
option-leaderboard-stat-desc = Wonach sortiert wird
option-leaderboard-scope = bereich
option-leaderboard-scope-desc = Dieser Server oder nur dieser Kanal
choice-server = Server
choice-channel = Kanal
option-leaderboard-period = zeitraum
option-leaderboard-period-desc = Insgesamt, diesen Monat oder diese Woche
choice-all = insgesamt
choice-month = Monat
choice-week = Woche
command-stats = statistik
command-stats-desc = Die Karte eines Spielers: Spiele, Getränke, Bluffs, Glück
option-stats-user = spieler
option-stats-user-desc = Wessen Karte (leer: deine)
option-stats-text = text
option-stats-text-desc = Nur Text statt Bild
option-stats-computer = computer
option-stats-computer-desc = Stattdessen die Karte eines Computerspielers
command-history = verlauf
command-history-desc = Die letzten Runden in diesem Kanal
option-history-count = anzahl
option-history-count-desc = Wie viele Runden (1-25)
command-resetleaderboard = rangliste-zurücksetzen
command-resetleaderboard-desc = Die Rangliste dieses Servers löschen (Server verwalten)
command-rules = regeln
command-rules-desc = Die Regeln eines Regelwerks zeigen, oder alle fünf
option-rules-ruleset = regelwerk
option-rules-ruleset-desc = Welches Regelwerk erklärt wird; leer für die Übersicht
option-rules-public = alle
option-rules-public-desc = Die Regeln allen im Kanal zeigen (sonst nur dir)
earlier-game = Der Button ist von einem früheren Spiel.
moved-elsewhere = Da war jemand schneller: das Spiel ist schon weiter. Nichts hat sich geändert; schau auf den Tisch und versuch's nochmal.
menu-pick-one = Wähl eine Option aus dem Menü.
menu-wrong-choice = Die Auswahl gehört nicht zu diesem Menü.

## Engine refusals (bot/engine/errors.py raises them by key): one error-<key> each, as in en.ftl.
## $claim, $standing, $roll are rolls in the table's words; $valid, $presets, $options are
## ready-made lists; $spellings lists example spellings; $player is a mention.

# the table: lobby, seats, host
error-game-over = Das Spiel ist vorbei.
error-already-over = Das Spiel ist schon vorbei.
error-not-started = Das Spiel hat noch nicht angefangen.
error-already-started = Das Spiel läuft schon.
error-not-in-game = Du spielst hier nicht mit.
error-not-your-turn = Du bist nicht dran: { $player } ist am Zug.
error-already-in-game = Du bist schon dabei.
error-out-of-game = Du bist raus.
error-table-full = Der Tisch ist voll (höchstens { $max_players } Spieler).
error-lives-game-closed = Ein laufendes Spiel um Leben nimmt keine neuen Spieler auf.
error-host-starts = Nur der Host kann das Spiel starten.
error-host-ends = Nur der Host kann das Spiel beenden.
error-too-few-players = Ein Spiel braucht mindestens { $min_players } Spieler.
error-no-person-seated = Ein Spiel braucht mindestens einen Menschen am Tisch.
error-computers-in-lobby = Computerspieler setzen sich in der Lobby dazu, vor dem Start.
error-host-seats-computers = Nur der Host setzt Computerspieler dazu oder nimmt sie raus.
error-computer-already-seated = Der Computerspieler sitzt schon am Tisch.
error-no-such-computer = So einen Computerspieler gibt es am Tisch nicht.
# moves as values: buttons, and what a move carries
error-stale-button = Der Button ist von einem früheren Zug; nimm die neueste Nachricht.
error-button-not-ours = Der Button gehört zu keinem Spiel dieses Bots.
error-unknown-move = Unbekannter Zug '{ $act }'.
error-claim-not-a-roll = Die Ansage ist kein Wurf.
error-choice-names-no-player = Die Auswahl nennt keinen Spieler.
error-keep-one-or-two = Halten kannst du nur eine einzelne 1 oder 2.
error-move-takes-no-value = Zu diesem Zug gehört kein Wert.
error-needs-claim = Dieser Zug braucht eine Ansage.
error-needs-die = Dieser Zug braucht den Würfel, den du hältst.
error-needs-player = Dieser Zug braucht einen Spieler.
error-needs-computer = Dieser Zug braucht einen Computerspieler.
# typed claims
error-not-a-roll = { $typed } ist kein Wurf. So geht's: { $spellings }.
# bluffing under the cup
error-no-cup = In { $preset } gibt es keinen Becher zum Bluffen.
error-three-one-no-result = Eine 3-1 zählt in { $preset } nicht: sie liegt nie unterm Becher. Sag eins davon an: { $valid }.
error-claim-too-low = { $claim } schlägt die Ansage { $standing } nicht. Jetzt geht: { $valid }.
error-no-claim-now = Gerade gibt es nichts anzusagen.
error-blind-off = Blind würfeln ist in diesem Spiel aus.
error-claim-after-roll = Du hast gewürfelt: jetzt sag an (oder gib auf).
error-social-reroll-open = Nach dem Prost nochmal würfeln, diesmal mit offenen Augen.
error-roll-first = Erst würfeln.
error-answer-first = Erst glauben oder aufdecken.
error-no-claim-to-answer = Keine Ansage wartet auf Antwort.
error-not-your-answer = Du bist nicht dran: die Ansage ging an { $player }.
error-pass-unrolled-off = Nach dem Glauben musst du würfeln: ungesehen weitergeben ist aus.
error-accept-before-pass = Erst die Ansage glauben, dann den Becher weitergeben.
error-roll-after-top = Nach der Ansage { $claim } musst du neu würfeln.
error-fold-off = Aufgeben ist in diesem Spiel aus.
error-fold-needs-claim = Aufgeben geht nur, wenn du gegen eine Ansage gewürfelt hast.
# open rolls
error-open-roll-only = Der Zug gehört zu den Spielen mit offenen Würfen, nicht zu { $preset }.
error-every-roll-open = In diesem Spiel sind alle Würfe offen.
error-hand-out-first = Erst deinen Schluck verteilen (du hast 3-1 gewürfelt).
error-name-knight-first = Erst den nächsten Ritter bestimmen.
error-no-rolls-left = Du hast keine Würfe mehr: stehen lassen oder die Runde beenden.
error-no-stand-in-rolloff = Im Stechen kannst du nichts stehen lassen: würfel.
error-nothing-to-stand-on = Erst würfeln: du hast noch keinen Wurf, den du stehen lassen kannst.
error-keep-off = Würfel halten ist in diesem Spiel aus.
error-cannot-keep = Halten geht nur mit einer einzelnen 1 oder 2 neben einer 3-6, einmal pro Zug, mit einem Wurf übrig.
error-keep-which = Du kannst nur die { $die } halten.
error-end-early-off = Runden vorzeitig beenden ist in diesem Spiel aus.
error-rolloff-runs-on = Ein Stechen kann man nicht vorzeitig beenden.
error-top-rolled = Ein { $roll } ist gefallen: diese Runde kann nicht vorzeitig enden.
error-own-roll-first = Mach erst selbst einen Wurf, der zählt, dann kannst du die Runde beenden.
error-nothing-to-tap = Gerade gibt's keine 3-2 zum Festnageln.
error-tap-own = Bei deiner eigenen 3-2 kannst du nicht klopfen.
error-no-sip = Du hast keinen Schluck zu verteilen.
error-sip-to-other = Gib den Schluck einem anderen Spieler im Spiel.
error-no-knight = Du hast keinen Ritter zu bestimmen.
error-knight-other = Bestimm einen anderen Spieler im Spiel zum Ritter.
# rule sets and house rules
error-unknown-preset = Unbekanntes Regelwerk '{ $preset }'. Zur Wahl: { $presets }.
# The bot arena's round (bot/engine/maexchen.py); its server answers bots in the protocol's
# own words, so these reach only its log and tests.
error-arena-seats = Eine Arena-Runde braucht mindestens zwei Bots, nicht { $players }.
error-arena-not-a-roll = { $dice } ist kein Würfelpaar.
error-arena-fault = Ein Fehler { $reason } gehört nicht zum Schritt { $stage }.
error-arena-stage = Dieser Zug gehört zum Schritt { $wanted }, nicht { $stage }.
error-unknown-options = Unbekannte Option(en): { $options }.
error-three-one-not-allowed = Eine 3-1 kann { $family ->
    [bluff] in einem Bluffspiel
   *[other] in einem Spiel mit offenen Würfen
} kein { $three_one ->
    [social] Prost
    [handout] Verteilen
    [elbow] Ellbogen
   *[other] '{ $three_one }'
} sein.
error-lives-range = Leben müssen zwischen 1 und 99 liegen.
error-lives-required = Dieses Regelwerk spielt um Leben: die lassen sich nicht ausschalten.
error-rolls-range = Würfe pro Zug müssen zwischen 1 und 6 liegen.
error-base-cap-range = Basis und Obergrenze müssen mindestens 1 sein.
error-player-limits = Spielerzahlen müssen 2 <= min <= max <= 25 erfüllen.
error-turn-timer-range = Die Zugzeit geht von 0 (aus) bis { $max_seconds } Sekunden, nicht { $seconds }.
error-units-first = Einheit ist 'sips' oder 'points'; first ist 'host' oder 'random'.

## Leaderboard and stats (/leaderboard, /stats, /history, /resetleaderboard)

server-only-command = Dieser Befehl geht nur in Server-Kanälen.
stat-wins = Siege
stat-winrate = Siegquote
stat-sips = Schlucke getrunken
stat-shots = Kurze getrunken
stat-chugs = Mal geext
stat-points = Punkte kassiert
stat-handed_out = Schlucke verteilt
stat-lives_lost = Leben verloren
stat-bluffing = Bluff-Quote
stat-calls = Aufdeck-Quote
stat-mex = Mäxchen gewürfelt
leaderboard-scope = { $scope ->
    [channel] dieser Kanal
   *[server] dieser Server
}
leaderboard-period = { $period ->
    [month] dieser Monat
    [week] diese Woche
   *[all] insgesamt
}
leaderboard-title = 🏆 { $stat } · { $scope } · { $period }
leaderboard-empty = Hier steht noch keiner in der Liste: spielt eine Runde!
leaderboard-your-place = Dein Platz
leaderboard-not-ranked = noch nicht in der Wertung
leaderboard-page = Seite { NUMBER($page, useGrouping: 0) }/{ NUMBER($pages, useGrouping: 0) }
leaderboard-page-minimum = Seite { NUMBER($page, useGrouping: 0) }/{ NUMBER($pages, useGrouping: 0) } · ab { $minimum } in der Wertung
leaderboard-page-gone = Die Seite gibt es nicht mehr.
# The /stats card: the image (drawn in DejaVu Sans, bot/present/fonts/) and its text
# version show every letter as written.

card-wins = { $n ->
    [one] { $n } Sieg
   *[other] { $n } Siege
}
card-headline = { $games } · { $wins } · { $rate } Siegquote
card-headline-no-rate = { $games } · { $wins } · keine Siegquote
card-taken = getrunken
card-caused = ausgeteilt
card-lives-lost = Leben verloren
card-rounds-lost = Runden verloren
card-bluffs = geblufft / erwischt
card-calls = aufgedeckt / richtig
card-luck = Mäxchen gewürfelt
card-favourite = Lieblingsansage
card-nemesis = Erzfeind
card-rolls = Würfe
card-nothing = nichts
card-none-yet = noch keine
card-number = { $n }
card-pair = { $a } / { $b }
card-luck-value = { $n } ({ NUMBER($expected, minimumFractionDigits: 1, maximumFractionDigits: 1) } erwartet)
card-times = { $what } ({ $n }x)
card-footer = Glück: gewürfelte Mäxchen gegen die 2 von 36, die deine Würfe erwarten lassen
card-unknown-player = Spieler { $id }
history-title = 📜 Letzte Runden hier
history-replays = ▶️ Wiederholungen: { $links }
history-replay = [Spiel { $n }]({ $url })
history-empty = Hier wurde noch keine Runde gespielt.
history-void = `#{ NUMBER($round, useGrouping: 0) }` { $preset }: zählt nicht, keiner hat gezahlt
history-lost = `#{ NUMBER($round, useGrouping: 0) }` { $preset }: { $p } hat verloren ({ $reason ->
        [call] beim Aufdecken
        [fold] aufgegeben
        [timer] Zeit abgelaufen
        [lowest] niedrigster Wurf
        [end_early] vorzeitig beendet
       *[other] { $reason }
    })
history-penalty = { $p } { $amount }: { $why }
history-more = und { $more } weitere
reset-needs-permission = Zum Zurücksetzen der Rangliste brauchst du das Recht „Server verwalten“.
reset-sure = Das löscht Zähler, Lieblingsansagen, Erzfeinde, Wertungen, Erfolge, Saisons und Meister dieses Servers endgültig (der Rundenverlauf bleibt). Sicher?
reset-not-yours = Das ist nicht dein Button.
reset-confirm = Ja, Rangliste zurücksetzen
reset-cancel = Abbrechen
reset-done = { $n ->
    [one] Rangliste zurückgesetzt ({ $n } Eintrag gelöscht).
   *[other] Rangliste zurückgesetzt ({ $n } Einträge gelöscht).
}
reset-nothing = Nichts wurde zurückgesetzt.

## League: ratings, seasons and the achievements list (/season, /achievements, the final
## standing, the card). Achievement names and explanations are in the last section.

command-season = saison
command-season-desc = Diese Saison: Tage übrig, die Besten und frühere Meister
option-season-length = länge
option-season-length-desc = Nur mit Server verwalten: eine Saison dauert einen Monat oder ein Quartal
choice-quarter = Quartal
command-achievements = erfolge
command-achievements-desc = Erreichte und offene Erfolge, und wie selten jeder hier ist
option-achievements-user = spieler
option-achievements-user-desc = Wessen Erfolge (leer: deine)
stat-rating = Wertung
stat-rating_bluff = Wertung (Bluffspiele)
stat-rating_open = Wertung (offene Würfe)
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
    [bluff] Bluff-Wertung startet
    [open] Wertung offenes Würfeln startet
   *[all] Wertungen starten
} bei 1.000
rating-rests = ⏸️ Wertungen ruhen zwischen Spielern, die schon { $n } gewertete Spiele in 24 Stunden zusammen hatten.
rating-provisional = ? = vorläufig (unter 10 Spielen)
leaderboard-page-rating = Seite { NUMBER($page, useGrouping: 0) }/{ NUMBER($pages, useGrouping: 0) } · { rating-provisional }
standing-rating = { $rating } ({ $change })
achievement-earned = 🏅 { $p }: { $names }
family = { $family ->
    [bluff] Bluffspiele
   *[open] Offene Würfe
}
season-name = { $quarter ->
    [0] { $month ->
        [1] Januar
        [2] Februar
        [3] März
        [4] April
        [5] Mai
        [6] Juni
        [7] Juli
        [8] August
        [9] September
        [10] Oktober
        [11] November
       *[12] Dezember
    } { NUMBER($year, useGrouping: 0) }
   *[other] Q{ $quarter } { NUMBER($year, useGrouping: 0) }
}
season-title = 🏆 Saison: { $season }
season-days-left = { $days ->
    [one] Heute ist der letzte Tag.
   *[other] Noch { $days } Tage.
}
season-length = { $length ->
    [quarter] Eine Saison dauert ein Quartal.
   *[month] Eine Saison dauert einen Kalendermonat.
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
season-nobody-yet = Diese Saison noch keine gewerteten Spiele.
season-past = Frühere Meister
season-past-line = **{ $season }** · { $champions }
season-champion = { $family ->
    [bluff] Bluffen
   *[open] offene Würfe
}: { $p } { $rating }
season-length-set = Erledigt: eine Saison dauert jetzt { $length ->
    [quarter] ein Quartal
   *[month] einen Monat
}. Diese Saison: { $season }.
season-needs-permission = Du brauchst die Berechtigung Server verwalten, um die Saisonlänge zu ändern.
check-what-season-length = Die Saisonlänge
check-what-web-pages = Die Einstellung Seiten
season-over = 🏆 **{ $season }** ist vorbei. Die Meister:
season-over-family = { $family }: { $champions }
season-over-next = Die neue Saison beginnt jetzt, alle Wertungen laufen weiter: /{ command-season }
achievements-title = 🏅 { $name } · { $earned } von { $total }
achievements-earned = 🏅 **{ $name }** · { $rarity }
achievements-open = ▫️ **{ $name }**: { $how } · { $rarity }
achievements-open-unexplained = ▫️ **{ $name }** · { $rarity }
achievements-rarity = { $holders ->
    [0] noch niemand
   *[other] { $percent } % der Spieler
}
achievements-none = Hier gibt es noch keine Erfolge.
card-rating = Wertung · { $family ->
    [bluff] Bluffen
   *[open] offene Würfe
}
card-achievements = Erfolge
card-achievements-value = { $n } · am seltensten: { $rarest }

## Help (/help): one short private page, in the reader's language

command-help = hilfe
command-help-desc = Worum es geht und welche Befehle du gerade hast
option-help-ruleset = regelwerk
option-help-ruleset-desc = Die Befehle eines Regelwerks; leer für das Spiel in diesem Kanal
help-title = 🎲 Hilfe
help-title-preset = 🎲 Hilfe · { $preset }
help-game = Zwei Würfel, der höhere zählt als Zehner (eine 6 und eine 4 sind 64); Pasche schlagen die, und 21 schlägt alles.
    Bluffspiele: Du würfelst unterm Becher, sagst einen Wurf an, und der Nächste glaubt dir oder deckt auf.
    Offenes Würfeln: Alle würfeln offen, und der niedrigste Wurf zahlt.
help-moves-title = Deine Züge hier (die Knöpfe an der Zugnachricht tun dasselbe)
help-lobby-title = Hier läuft noch kein Spiel: starte eins
help-command = /{ $command }: { $what }
help-more = Alle Regeln: /{ command-rules } { option-rules-ruleset }:<name>

## Rules (/rules): one page per rule set, each rule a line of its -lines message

rules-overview-title = Mäxchen: fünf Arten zu spielen
rules-overview-preset = { $preset } · { $style }
rules-overview-footer = Details: /{ command-rules } { option-rules-ruleset }:<name>
rules-roll-order-title = Rangfolge der Würfe
rules-roll-order = Zwei Würfel, der höhere zählt als Zehner (eine 6 und eine 4 sind 64). Von niedrig nach hoch: 31 (wo sie zählt), 32, 41 … 54, 61 … 65, dann die Pasche 11 bis 66, und ganz oben 21.
rules-fair-cup-title = Schummelt der Bot? Prüf den Becher
rules-fair-cup = Kommen die Würfel unter den Becher, werden sie versiegelt: mit dem SHA-256 von `hoch-niedrig:salt` (zum Beispiel `6-2:` und ein zufälliges Salt). Der Button **Becher** an der Zugnachricht zeigt dir das Siegel (und deine eigenen Würfel, wenn du gewürfelt hast). Wird der Becher gelüftet, zeigt der Becher-Button beim Aufdecken die Würfel und das Salt: hash den Text selbst (`printf '6-2:<salt>' | sha256sum` oder jedes andere SHA-256-Tool). Passt es zum Siegel, standen die Würfel fest, bevor jemand geantwortet hat, und wurden nie getauscht. Die Würfel kommen aus der kryptografischen Zufallsquelle des Betriebssystems.
rules-table-title = An jedem Tisch
rules-table-lines = Nur wer dran ist, kann ziehen.
    Jedes Regelwerk kann statt Schlucken neutrale Punkte zählen.
    Ein Spiel pro Kanal; ein Spiel braucht mindestens 2 Spieler.
rules-computers-title = Computerspieler (/{ command-addbot } in der Lobby)
rules-computer = { $name }: { $blurb }.
rules-style = { $family ->
    [bluff] Bluffen
   *[open] Offene Würfe
}
rules-footer = { $style } · Regelwerk: { $preset }
rules-mexican-title = Mexican — die Hausregeln aus der Kneipe
rules-mexican-summary = Bluffen mit verdecktem Wurf; wer beim Aufdecken verliert, trinkt einen Schluck, einen Kurzen oder muss exen.
rules-mexican-lines = Du würfelst verdeckt: nur du siehst deine Würfel. Dann sagst du einen Wert an und gibst den Becher weiter.
    Jede Ansage muss die letzte erreichen oder schlagen. Gleich ist okay, und 21 nach 21 zählt als gleich.
    Der Nächste nimmt den Becher (und muss würfeln) oder deckt auf.
    Aufdecken: Liegt weniger als angesagt, verliert der Ansager; gleich oder mehr, verliert der Aufdecker. Der Aufdecker fängt die nächste Runde an.
    Eine 3-1 ist ein Prost: alle am Tisch, auch der Würfler, trinken einen Schluck, und er würfelt nochmal. Die letzte Ansage muss trotzdem erreicht werden.
    Kannst oder willst du die Ansage nicht schlagen? Gib für 1 Schluck auf; die Würfel bleiben ungesehen und der Nächste fängt neu an.
    Was der Verlierer trinkt, hängt von der Ansage ab: ein normaler Wurf kostet einen Schluck, ein Pasch einen Kurzen, und bei einem Mäxchen (21) heißt es exen.
    Kein festes Ende: der Host beendet das Spiel. Mit der Option Leben (je 4) kostet jede verlorene Runde auch ein Leben, und wer als Letzter übrig ist, gewinnt.
rules-dollar-title = Dollar — bluffen um Leben
rules-dollar-summary = Klassisches Mäxchen: jedes verlorene Aufdecken kostet eins deiner vier Leben.
rules-dollar-lines = Jeder hat 4 Leben, eins pro Ecke eines Dollarscheins. Verlierst du das letzte, bist du raus; wer als Letzter übrig ist, gewinnt.
    31 ist der niedrigste Wurf und 21 (das Mäxchen) der höchste.
    Verdeckt würfeln, einen Wert ansagen, Becher weitergeben. Jede Ansage muss höher sein als die davor, gleich reicht nicht.
    Nach einer Ansage von 21 muss der Nächste, der den Becher nimmt, neu würfeln und darf nur 21 ansagen.
    Nimmst du den Becher, darfst du würfeln oder ihn ungesehen weitergeben und über Würfel, die du nicht gesehen hast, höher ansagen (nie nach einer 21).
    Blind würfeln: würfeln, ohne hinzusehen. Der Bot zeigt dir diese Würfel nicht.
    Aufdecken: Liegt weniger als angesagt, verliert der Ansager ein Leben; gleich oder mehr, der Aufdecker. Der Aufdecker fängt die nächste Runde an.
rules-mexen-title = Mexen — offene Würfe
rules-mexen-summary = Alle würfeln offen; der niedrigste Wurf trinkt, doppelt für jedes Mäxchen.
rules-mexen-lines = Wer die Runde anfängt, würfelt bis zu 3-mal und darf nach jedem Wurf aufhören. So viele Würfe hat in dieser Runde jeder.
    Nur dein letzter Wurf zählt, auch wenn ein früherer besser war. Ein Mäxchen (21) beendet deinen Zug sofort.
    Eine 3-1 zählt nicht: verteil einen Schluck an einen anderen Spieler und würfel nochmal; dieser Wurf kostet keinen deiner Würfe.
    Wenn alle gewürfelt haben, verliert der niedrigste Wurf. Bei Gleichstand gibt's ein Stechen, ein Wurf pro Kopf, bis einer allein den niedrigsten Wurf hat.
    Der Verlierer trinkt 1 Schluck, doppelt für jedes Mäxchen dieser Runde (2, 4, …), aber nie mehr als 4.
    Vorzeitig beenden: Solange keiner ein Mäxchen hat, darfst du nach deinem eigenen Wurf die Runde beenden und die einfache Strafe selbst nehmen.
    Leben als Option (je 6): eine Niederlage kostet 1 Leben, oder 2 für jedes Mäxchen. Der Verlierer fängt die nächste Runde an.
rules-mexicanen-title = Mexicanen — offene Würfe um Leben
rules-mexicanen-summary = Offene Würfe mit je 6 Leben; der niedrigste Wurf verliert Leben, mehr, wenn ein Mäxchen fiel.
rules-mexicanen-lines = Jeder startet mit 6 Leben. Die Züge laufen wie bei Mexen: wer anfängt, legt die Zahl der Würfe fest (1 bis 3), und nur dein letzter Wurf zählt.
    Gezählt wird in Zahlen: Pasche sind 100 bis 600, das Mäxchen (21) ist 1000, und 31 ist einfach der niedrigste Wurf.
    Der niedrigste Wurf verliert 1 Leben, oder 2 für jedes Mäxchen der Runde, Stechen mitgezählt.
    Haben mehrere den niedrigsten Wurf, gibt's unter ihnen ein Stechen, ein Wurf pro Kopf.
    Vorzeitig beenden: Solange keiner ein Mäxchen hat, darfst du die Runde nach deinem eigenen Wurf beenden; dann verlierst nur du 1 Leben.
    Wer zuerst bei 0 Leben ist, verliert, und das Spiel ist aus (Option: weiterspielen, bis einer übrig ist).
    Der Verlierer fängt die nächste Runde an.
rules-mexico-title = Mexico — mit Pott, Ritter und Ellbogen
rules-mexico-summary = Offene Würfe für 2 bis 8 Spieler mit wachsendem Pott, einem Ritter und dem Ellbogen.
rules-mexico-lines = 2 bis 8 Spieler. Wer anfängt, würfelt bis zu 3-mal und legt damit die Würfe für alle fest; nur dein letzter Wurf zählt.
    Würfel halten: Eine einzelne 1 oder 2 (der andere Würfel keins von beiden) darfst du einmal pro Zug halten und den anderen neu würfeln. Das kostet einen Wurf.
    Der Pott fängt jede Runde bei 1 an. Jeder Pasch legt die Augen eines seiner Würfel drauf.
    Ein Mäxchen (21) beendet deinen Zug: ein Pott von 1 springt auf 8, sonst verdoppelt er sich. Jedes weitere Mäxchen verdoppelt ihn wieder.
    Der Ritter: Wer 1-1 würfelt, wird Ritter, und der alte Ritter trinkt einen Schluck. Würfelt der Ritter selbst 1-1, bestimmt er einen neuen Ritter.
    Würfelt irgendwer einen Pasch von 2-2 bis 6-6, trinkt der Ritter so viele Schlucke, wie ein Würfel zeigt.
    Ellbogen (3-1): kein Ergebnis. Dein Zug fängt mit allen Würfen von vorne an.
    Festnageln (3-2): Solange du noch Würfe hast, dürfen die anderen KLOPFEN, bevor du nochmal würfelst; dann ist deine 3-2 fest.
    Der niedrigste Wurf trinkt den ganzen Pott; bei Gleichstand wird nochmal gewürfelt. Der Verlierer fängt die nächste Runde an. Es gibt keinen Sieger: gespielt wird, bis ihr aufhört.

## Berechtigungen, die dem Bot in einem Kanal fehlen (Namen wie in Discords Einstellungen)
perm-view_channel = Kanal ansehen
perm-send_messages = Nachrichten senden
perm-send_messages_in_threads = Nachrichten in Threads senden
perm-embed_links = Links einbetten
perm-read_message_history = Nachrichtenverlauf lesen
perm-without-view_channel = Ich kann hier nichts posten
perm-without-send_messages = Ich kann hier nichts posten
perm-without-send_messages_in_threads = Ich kann in diesem Thread nichts posten
perm-without-embed_links = Ich kann den Tisch hier nicht zeigen
perm-without-read_message_history = Ich kann hier nach einem Neustart alte Buttons nicht aufräumen
perm-missing = { $without }: gib mir { $names } in diesem Kanal.
perm-missing-thread = { $without }: gib mir { $names } im Kanal, zu dem dieser Thread gehört.

## Refusals worded outside the engine: the tables (bot/game/tables.py), a command that failed
## (bot/runtime/client.py) and values no real client sends (bot/adapter/checks.py).
no-game-here = In diesem Kanal läuft kein Spiel. Fang eins an mit /{ command-newgame }.
channel-busy = In diesem Kanal läuft schon ein Spiel: mach mit oder beende es mit /{ command-endgame }.
command-no-permission = Dir fehlt die Berechtigung, die dieser Befehl braucht.
command-check-failed = Diesen Befehl kannst du hier nicht benutzen.
command-bad-value = Einen deiner Werte konnte ich nicht lesen. Wähl ihn bitte nochmal.
command-bad-options = Der Befehl kam mit Optionen, die ich nicht kenne. Gib ihn bitte nochmal ein.
command-failed = Bei mir ist etwas schiefgegangen. Mit /{ command-table } siehst du, wie das Spiel steht.
check-whole-number = { $what }: eine ganze Zahl von { $low } bis { $high }, bitte.
check-one-of = { $what }: bitte eins von { $allowed }.
check-text = { $what }: höchstens { $limit } Zeichen Text, bitte.
check-what-ruleset = Variante
check-what-lives = Leben
check-what-units = Einheiten
check-what-turn-timer = Zugzeit
check-what-language = Sprache
check-what-computer = Computerspieler
check-what-keep = Würfel zum Behalten
check-what-stat = Statistik
check-what-scope = Bereich
check-what-period = Zeitraum
check-what-rounds = Anzahl der Runden

## Achievements: achievement-<key> is the name, achievement-<key>-how says how to earn it
## (bot/league/achievements.py lists the keys).
achievement-first_win = Erster Sieg
achievement-first_win-how = Gewinne ein Spiel.
achievement-ten_wins = Zehnfachsieger
achievement-ten_wins-how = Gewinne 10 Spiele.
achievement-flawless = Makellos
achievement-flawless-how = Gewinne ein Spiel mit Leben, indem du jemanden rauswirfst, ohne selbst eins zu verlieren.
achievement-last_life = Am seidenen Faden
achievement-last_life-how = Gewinne ein Spiel, nachdem du beim letzten Leben warst.
achievement-comeback = Comeback
achievement-comeback-how = Gewinne ein Spiel nach 3 oder mehr Leben Rückstand.
achievement-ada_slayer = Ada wer?
achievement-ada_slayer-how = Schlag Expert Ada im Duell.
achievement-bluff_hunter = Bluffjäger
achievement-bluff_hunter-how = Erwisch 3 Bluffs in einem Spiel.
achievement-lie_detector = Lügendetektor
achievement-lie_detector-how = Deck in einem Spiel 4-mal auf, jedes Mal zu Recht.
achievement-mex_exposed = Mäxchen entlarvt
achievement-mex_exposed-how = Deck ein angesagtes Mäxchen auf, das gar nicht da ist.
achievement-ghost_mex = Geister-Mäxchen
achievement-ghost_mex-how = Sag ein Mäxchen an, das du nicht hast, und man glaubt dir.
achievement-blind_faith = Blindes Vertrauen
achievement-blind_faith-how = Sag Würfel an, die du nie gesehen hast, und behalte beim Aufdecken recht.
achievement-triple_mex = Dreifach-Mäxchen
achievement-triple_mex-how = Würfel dreimal Mäxchen in einem Spiel.
achievement-social = Prost!
achievement-social-how = Würfel ein Prost: die 3-1, auf die alle trinken.
achievement-bartender = Barkeeper
achievement-bartender-how = Würfel in einem Spiel dreimal 3-1 und verteil jedes Mal den Schluck.
achievement-double_knight = Doppelritter
achievement-double_knight-how = Werde in einem Spiel zweimal Ritter.
achievement-tapper = Klopf-klopf
achievement-tapper-how = Nagel mit KLOPFEN die 3-2 eines anderen fest.
achievement-marathon = Marathon
achievement-marathon-how = Bring ein Spiel mit 30 Runden oder mehr zu Ende.
achievement-full_table = Volles Haus
achievement-full_table-how = Spiel an einem Tisch mit 6 oder mehr Spielern.
achievement-dry_run = Stocknüchtern
achievement-dry_run-how = Spiel 10 Runden oder mehr bis zum Ende ohne Schluck, während andere trinken.
achievement-tourist = Tourist
achievement-tourist-how = Spiel jedes Regelwerk.
achievement-all_rounder = Allrounder
achievement-all_rounder-how = Gewinne in jedem Regelwerk.
achievement-centurion = Stammgast
achievement-centurion-how = Spiel 100 Partien.

## The web companion (README, Web companion): /web and the pages it links to.

command-web = web
command-web-desc = Ranglisten, Profile und Wiederholungen dieses Servers im Web (Server verwalten)
option-web-pages = seiten
option-web-pages-desc = Die Webseiten ein- oder ausschalten (leer: den Link zeigen)
choice-on = ein
choice-off = aus
web-needs-permission = Nur wer Server verwalten darf, kann die Webseiten ein- oder ausschalten.
web-not-set-up = Dieser Bot hat keine Webseiten: sein Betreiber hat WEB_URL nicht gesetzt.
web-on = 🌐 Die Seiten dieses Servers: { $link }
    Wer den Link hat, sieht die Ranglisten, Profile und beendeten Spiele. `/{ command-web } { option-web-pages }:{ choice-off }` nimmt sie vom Netz.
web-off = Die Webseiten sind aus: der Link zeigt nichts mehr.
web-is-off = Die Webseiten dieses Servers sind aus. `/{ command-web } { option-web-pages }:{ choice-on }` stellt sie online.
web-replay-link = 🎬 Wiederholung: { $link }
web-site = Mäxchen
web-leaderboards = Ranglisten
web-other-boards = Weitere Ranglisten
web-season = Saison
web-games = Letzte Spiele
web-no-games = Noch keine beendeten Spiele.
web-replay = Wiederholung
web-player = Spieler …{ $tag }
web-ratings = Wertungen
web-rating-history = Verlauf der Wertung
web-achievements = Erfolge
web-card = Statistik
web-step = Zug { NUMBER($n, useGrouping: 0) } von { NUMBER($total, useGrouping: 0) }
web-play = ▶ Abspielen
web-pause = ⏸ Pause
web-back = ◀
web-next = ▶
web-round = Runde { NUMBER($round, useGrouping: 0) }
web-to-move = { $p } ist am Zug
web-claim = Ansage: { $claim } von { $p }
web-cup-down = 🥤 Becher zu, versiegelt
web-cup-lifted = 🥤 Becher gehoben: { $dice }
web-seal-check = Siegel prüfen
web-seal-ok = ✅ Das Siegel stimmt: diese Würfel lagen die ganze Zeit unter dem Becher.
web-seal-bad = ❌ Das Siegel stimmt nicht.
web-seal-how = Das Siegel ist sha256 dieses Textes:
web-player-col = Spieler
web-lives-col = Leben
web-taken-col = Getrunken
web-out = raus
web-not-found = Hier ist nichts: der Link ist falsch, oder die Seiten dieses Servers sind aus.
web-footer = Seiten des Mäxchen-Bots, in der Sprache deines Browsers.
web-version = Version { $version }
web-seal-down = Das Siegel ist sha256 der Würfel und eines geheimen Salzes: Es steht da, sobald der Becher unten ist, und der gehashte Text, sobald er gehoben wird.
web-game-line = { $date } · { $players }
web-game-winner = 🏆 { $winner }
web-game-no-winner = kein Sieger
web-root-title = Mäxchen: die Seiten eines Discord-Bots
web-root-text = Diese Seite zeigt Ranglisten, Saisons, Profile und Wiederholungen von Discord-Servern, die mit diesem Bot Mäxchen spielen. Die Seiten eines Servers sind nur über seinen Link zu sehen: Ein Admin schaltet sie mit /{ command-web } in Discord ein und teilt den Link. Ohne Link gibt es hier nichts zu sehen.
preset-name-mexican = Mäxchen
preset-name-dollar = Dollar
preset-name-mexen = Offenes Mäxchen
preset-name-mexicanen = Offenes Mäxchen mit Leben
preset-name-mexico = Mexico
# The rule set menus show each rule set by its name; its code stays the value.
choice-mexican = { preset-name-mexican }
choice-dollar = { preset-name-dollar }
choice-mexen = { preset-name-mexen }
choice-mexicanen = { preset-name-mexicanen }
choice-mexico = { preset-name-mexico }
