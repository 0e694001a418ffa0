"""Hands written as 888poker and PartyPoker write them (from real hands of the shared samples,
../shared/corpus/sites/888 and partypoker), shared by the importers' tests."""

# A bet the others fold to: 888 gives it back unwritten, the collection is the pot less the rake.
P888_CASH = """\
#Game No : 1186521350
***** 888poker Hand History for Game 1186521350 *****
$3/$6 Blinds No Limit Holdem - *** 21 06 2018 19:41:18
Table Goiania 6 Max (Real Money)
Seat 4 is the button
Total number of players : 4
Seat 1: Kostan88 ( $600 )
Seat 2: Born2Disco ( $826.51 )
Seat 4: Tercinho390 ( $360 )
Seat 9: SigmFreud ( $600 )
SigmFreud posts small blind [$3]
Kostan88 posts big blind [$6]
** Dealing down cards **
Born2Disco folds
Tercinho390 calls [$6]
SigmFreud folds
Kostan88 checks
** Dealing flop ** [ Qc, 6h, 5h ]
Kostan88 bets [$7.50]
Tercinho390 folds
** Summary **
Kostan88 collected [ $14.25 ]
"""

# A walk: the collection holds the big blind's own excess (the site writes the whole pot).
P888_WALK = """\
***** 888poker Hand History for Game 349568100 *****
$0.05/$0.10 Blinds No Limit Holdem - *** 06 01 2014 00:00:29
Table Aberdeen 9 Max (Real Money)
Seat 2 is the button
Total number of players : 4
Seat 1: k1mme1 ( $6.84 )
Seat 2: fpfineza ( $5 )
Seat 4: Mikeloff ( $9.80 )
Seat 5: Raiseman13 ( $22.88 )
Mikeloff posts small blind [$0.05]
Raiseman13 posts big blind [$0.10]
** Dealing down cards **
k1mme1 folds
fpfineza folds
Mikeloff folds
** Summary **
Raiseman13 collected [ $0.15 ]
"""

P888_TOURNAMENT = """\
***** 888poker Hand History for Game 655462938 *****
$100/$200 Blinds No Limit Holdem - *** 08 08 2016 23:03:27
Tournament #83728678 $18.30 + $1.70 - Table #1 9 Max (Real Money)
Seat 5 is the button
Total number of players : 5
Seat 1: Mr.Tatt00 ( $3,548 )
Seat 5: bilguun0226 ( $1,614 )
Seat 7: DiggErr555 ( $4,886 )
Seat 9: MatjeP ( $1,058 )
Seat 10: CerealRobber ( $2,394 )
Mr.Tatt00 posts ante [$20]
CerealRobber posts ante [$20]
MatjeP posts ante [$20]
bilguun0226 posts ante [$20]
DiggErr555 posts ante [$20]
DiggErr555 posts small blind [$100]
MatjeP posts big blind [$200]
** Dealing down cards **
Dealt to DiggErr555 [ 8c, Qs ]
CerealRobber raises [$400]
Mr.Tatt00 folds
bilguun0226 raises [$1,594]
DiggErr555 folds
MatjeP calls [$838]
CerealRobber folds
** Dealing flop ** [ 6d, 7s, Kd ]
** Dealing turn ** [ 5c ]
** Dealing river ** [ 8d ]
** Summary **
bilguun0226 shows [ Qd, Js ]
MatjeP shows [ Ac, Ad ]
MatjeP collected [ $2,676 ]
"""

P888_DEAD_BLIND = """\
***** 888poker Hand History for Game 359567819 *****
$1/$2 Blinds No Limit Holdem - *** 14 04 2015 03:11:08
Table Arezzo 6 Max (Real Money)
Seat 6 is the button
Total number of players : 3
Seat 2: GYAMEPRO ( $70 )
Seat 7: icebbberg ( $220.01 )
Seat 9: whoisdrew ( $100.89 )
icebbberg posts small blind [$1]
whoisdrew posts big blind [$2]
GYAMEPRO posts dead blind [$1 + $2]
** Dealing down cards **
GYAMEPRO checks
icebbberg folds
whoisdrew checks
** Dealing flop ** [ Ks, Jc, Ac ]
whoisdrew checks
GYAMEPRO checks
** Dealing turn ** [ 2s ]
whoisdrew checks
GYAMEPRO checks
** Dealing river ** [ 4d ]
whoisdrew checks
GYAMEPRO checks
** Summary **
whoisdrew shows [ 5c, 7s ]
GYAMEPRO shows [ Js, 7d ]
GYAMEPRO collected [ $5.70 ]
"""

P888_FIXED = """\
#Game No : 503663069
***** 888poker Hand History for Game 503663069 *****
$0.06/$0.12 Blinds Fix Limit Holdem - *** 17 06 2018 20:28:21
Table Embu 10 Max (Real Money)
Seat 5 is the button
Total number of players : 2
Seat 5: uyangau ( $4.80 )
Seat 7: Chillwill184 ( $1.25 )
uyangau posts small blind [$0.06]
Chillwill184 posts big blind [$0.12]
** Dealing down cards **
uyangau calls [$0.06]
Chillwill184 checks
** Dealing flop ** [ 7c, Tc, 7d ]
Chillwill184 checks
uyangau bets [$0.12]
Chillwill184 calls [$0.12]
** Dealing turn ** [ 2c ]
Chillwill184 checks
uyangau bets [$0.25]
Chillwill184 calls [$0.25]
** Dealing river ** [ Ts ]
Chillwill184 checks
uyangau checks
** Summary **
Chillwill184 shows [ Kh, 7h ]
uyangau mucks [ 9c, 8s ]
Chillwill184 collected [ $0.94 ]
"""

# The win holds the uncalled $2.14 of the flop raise the site gave back.
PARTY_CASH = """\
***** Hand History for Game 13550695573 *****
$0.05/$0.10 USD NL Texas Hold'em - Monday, January 06, 08:54:23 EST 2014
Table Bloemfontein (Real Money)
Seat 2 is the button
Total number of players : 2/6
Seat 2: Kelevra_91 ( $22.85 USD )
Seat 5: hulkhoden1969 ( $10.10 USD )
Kelevra_91 posts small blind [$0.05 USD].
hulkhoden1969 posts big blind [$0.10 USD].
** Dealing down cards **
Kelevra_91 raises [$0.25 USD]
hulkhoden1969 raises [$0.70 USD]
Kelevra_91 calls [$0.50 USD]
** Dealing Flop ** [ 9c, Kd, Qs ]
hulkhoden1969 bets [$0.80 USD]
Kelevra_91 raises [$2.94 USD]
hulkhoden1969 folds
Kelevra_91 does not show cards.
Kelevra_91 wins $5.18 USD
"""

# A short all-in called: the rest of the bet comes back as "the side pot 1".
PARTY_ALL_IN = """\
***** Hand History for Game 13549932236 *****
$0.05/$0.10 USD NL Texas Hold'em - Sunday, January 05, 19:24:07 EST 2014
Table Aksay (Real Money)
Seat 5 is the button
Total number of players : 6/6
Seat 2: GrindAA ( $29.58 USD )
Seat 5: TYRANNOMAN1 ( $8.13 USD )
Seat 4: dr. spaz ( $10 USD )
Seat 6: kewen ( $24.77 USD )
Seat 3: mumija80 ( $11.37 USD )
Seat 1: xyxyTiltyxyx ( $15.02 USD )
kewen posts small blind [$0.05 USD].
xyxyTiltyxyx posts big blind [$0.10 USD].
** Dealing down cards **
GrindAA folds
mumija80 folds
dr. spaz raises [$0.30 USD]
TYRANNOMAN1 calls [$0.30 USD]
kewen calls [$0.25 USD]
xyxyTiltyxyx calls [$0.20 USD]
** Dealing Flop ** [ 8s, 5c, 6h ]
kewen checks
xyxyTiltyxyx checks
dr. spaz bets [$1.10 USD]
TYRANNOMAN1 calls [$1.10 USD]
kewen folds
xyxyTiltyxyx calls [$1.10 USD]
** Dealing Turn ** [ Ac ]
xyxyTiltyxyx checks
dr. spaz bets [$3.70 USD]
TYRANNOMAN1 calls [$3.70 USD]
xyxyTiltyxyx calls [$3.70 USD]
** Dealing River ** [ Tc ]
xyxyTiltyxyx checks
dr. spaz is all-In  [$4.90 USD]
TYRANNOMAN1 is all-In  [$3.03 USD]
xyxyTiltyxyx folds
dr. spaz shows [ 8c, 8d ]three of a kind, Eights.
TYRANNOMAN1 doesn't show [ Jc, Jd ]a pair of Jacks.
dr. spaz wins $1.87 USD from the side pot 1 with three of a kind, Eights.
dr. spaz wins $20.66 USD from the main pot with three of a kind, Eights.
"""

PARTY_TOURNAMENT = """\
Game #15414973928 starts.

#Game No : 15414977083
***** Hand History for Game 15414977083 *****
NL Texas Hold'em $1 USD Buy-in  - Sunday, July 24, 19:33:33 CEST 2016
Table $1 Sit & Go Hero (128487129) Table #1 (Real Money)
Seat 1 is the button
Total number of players : 4/4
Seat 4: Hero ( 460 )
Seat 3: Player0 ( 530 )
Seat 2: Player1 ( 580 )
Seat 1: Player2 ( 430 )
Trny: 128487129 Level: 1
Blinds(10/20)
Player1 posts small blind [10].
Player0 posts big blind [20].
** Dealing down cards **
Dealt to Hero [  8s Kh ]
Hero raises [40]
Player2 folds
Player1 calls [30]
Player0 calls [20]
** Dealing Flop ** [ As, 5c, 9c ]
Player1 bets [60]
Player0 calls [60]
Hero folds
** Dealing Turn ** [ 2d ]
Player1 checks
Player0 checks
** Dealing River ** [ 7s ]
Player1 bets [60]
Player0 folds
Player1 does not show cards.
Player1 wins 300 chips
"""

# A new player's second small blind counts towards his call ("calls [$0.05]" after it).
PARTY_NEW_PLAYER = """\
***** Hand History for Game 13551495313 *****
$0.05/$0.10 USD NL Texas Hold'em - Monday, January 06, 14:25:57 EST 2014
Table Barnsley (Real Money)
Seat 3 is the button
Total number of players : 5/9
Seat 8: PBarca88 ( $3 USD )
Seat 1: RELATIVE78 ( $12.95 USD )
Seat 2: hugomarcia ( $3.98 USD )
Seat 7: newstyle222 ( $10.37 USD )
Seat 3: sxdan ( $9.90 USD )
newstyle222 posts small blind [$0.05 USD].
PBarca88 posts big blind [$0.10 USD].
hugomarcia posts small blind [$0.05 USD].
** Dealing down cards **
RELATIVE78 calls [$0.10 USD]
hugomarcia calls [$0.05 USD]
sxdan calls [$0.10 USD]
newstyle222 calls [$0.05 USD]
PBarca88 raises [$0.50 USD]
RELATIVE78 folds
hugomarcia folds
sxdan folds
newstyle222 will be using his time bank for this hand.
newstyle222 folds
PBarca88 does not show cards.
PBarca88 wins $1 USD
"""
