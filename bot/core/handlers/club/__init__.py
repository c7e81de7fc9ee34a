"""The club's commands: /club (its tables, admins, seasons, standings, ledger, page),
/account (one person across platforms), /rating, /vs and /records, and what /endgame at a
club table adds. Their numbers are bot/core/club/'s; their rows bot/storage's."""
