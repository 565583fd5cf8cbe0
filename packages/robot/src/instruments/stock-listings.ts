import { mondayToFriday, session, type WeeklySession } from './trading-hours';

/**
 * Real listed companies by exchange, as compact tables: `TICKER|Name|price|volatility?`.
 * Prices are rough 2024 levels in the quote currency (pence for London, as the LSE quotes);
 * they only seed the simulator. Volatility defaults to the exchange's when left out.
 */
export interface Exchange {
  readonly code: string;
  readonly name: string;
  readonly suffix: string;
  readonly country: string;
  readonly currency: string;
  readonly timeZone: string;
  readonly sessions: readonly WeeklySession[];
  readonly hoursPerDay: number;
  readonly defaultVolatility: number;
  readonly listings: string;
}

const weekdays = mondayToFriday;

export const exchanges: readonly Exchange[] = [
  {
    code: 'US',
    name: 'NYSE / Nasdaq',
    suffix: '.US',
    country: 'US',
    currency: 'USD',
    timeZone: 'America/New_York',
    sessions: [session(weekdays, '09:30', '16:00')],
    hoursPerDay: 6.5,
    defaultVolatility: 0.25,
    listings: `
AAPL|Apple|190
MSFT|Microsoft|420
AMZN|Amazon|180
GOOGL|Alphabet Class A|170
GOOG|Alphabet Class C|172
META|Meta Platforms|480|0.4
NVDA|NVIDIA|900|0.5
TSLA|Tesla|180|0.55
BRK.B|Berkshire Hathaway B|410|0.15
JPM|JPMorgan Chase|195
V|Visa|275|0.18
MA|Mastercard|460|0.2
JNJ|Johnson & Johnson|150|0.15
WMT|Walmart|60|0.17
PG|Procter & Gamble|160|0.15
UNH|UnitedHealth|490
HD|Home Depot|345
XOM|Exxon Mobil|115
CVX|Chevron|155
LLY|Eli Lilly|760|0.3
ABBV|AbbVie|165
MRK|Merck & Co|128
PFE|Pfizer|28
KO|Coca-Cola|62|0.14
PEP|PepsiCo|170|0.15
COST|Costco|730
AVGO|Broadcom|1300|0.4
ORCL|Oracle|120
CSCO|Cisco|48
ADBE|Adobe|480|0.35
CRM|Salesforce|290|0.35
NFLX|Netflix|610|0.4
AMD|Advanced Micro Devices|160|0.5
INTC|Intel|35|0.4
QCOM|Qualcomm|170|0.35
TXN|Texas Instruments|175
IBM|IBM|185
BAC|Bank of America|37
WFC|Wells Fargo|58
C|Citigroup|62
GS|Goldman Sachs|420
MS|Morgan Stanley|92
AXP|American Express|230
BLK|BlackRock|780
SCHW|Charles Schwab|74
PYPL|PayPal|65|0.4
DIS|Walt Disney|112
CMCSA|Comcast|39
T|AT&T|17
VZ|Verizon|40|0.17
TMUS|T-Mobile US|160
MCD|McDonald's|270|0.17
SBUX|Starbucks|85
NKE|Nike|92
LOW|Lowe's|230
TGT|Target|160
BA|Boeing|180|0.35
CAT|Caterpillar|340
DE|Deere & Co|400
GE|GE Aerospace|160
HON|Honeywell|200
MMM|3M|95
UPS|United Parcel Service|145
FDX|FedEx|260
LMT|Lockheed Martin|460|0.18
RTX|RTX|100
NOC|Northrop Grumman|460
UNP|Union Pacific|240
AMGN|Amgen|280
GILD|Gilead Sciences|66
BMY|Bristol-Myers Squibb|45
TMO|Thermo Fisher|570
ABT|Abbott|108
DHR|Danaher|250
MDT|Medtronic|82
ISRG|Intuitive Surgical|380
CVS|CVS Health|60
CI|Cigna|340
ELV|Elevance Health|520
SPGI|S&P Global|430
MCO|Moody's|380
ICE|Intercontinental Exchange|135
CME|CME Group|210
UBER|Uber|70|0.45
ABNB|Airbnb|150|0.45
BKNG|Booking Holdings|3500
SHOP|Shopify|70|0.6
SQ|Block|70|0.55
COIN|Coinbase|220|0.8
PLTR|Palantir|22|0.6
SNOW|Snowflake|160|0.55
NOW|ServiceNow|740
INTU|Intuit|630
AMAT|Applied Materials|200|0.4
LRCX|Lam Research|900|0.4
MU|Micron|120|0.45
ASML|ASML Holding ADR|950|0.35
TSM|Taiwan Semiconductor ADR|140|0.35
BABA|Alibaba ADR|75|0.4
PDD|PDD Holdings|130|0.5
JD|JD.com ADR|28|0.45
NIO|NIO ADR|5|0.7
BIDU|Baidu ADR|100|0.4
SONY|Sony Group ADR|85
TM|Toyota Motor ADR|230
NVO|Novo Nordisk ADR|128|0.3
AZN|AstraZeneca ADR|75
SAP|SAP ADR|190
F|Ford Motor|12|0.35
GM|General Motors|44|0.35
RIVN|Rivian|11|0.7
LCID|Lucid Group|3|0.7
SPOT|Spotify|300|0.45
ZM|Zoom Video|62|0.4
DDOG|Datadog|125|0.5
CRWD|CrowdStrike|320|0.5
PANW|Palo Alto Networks|300|0.4
FTNT|Fortinet|65|0.4
NET|Cloudflare|90|0.55
MRNA|Moderna|110|0.55
REGN|Regeneron|950
VRTX|Vertex Pharmaceuticals|410
BIIB|Biogen|220
MO|Altria|44|0.17
PM|Philip Morris International|95|0.17
CL|Colgate-Palmolive|92|0.15
KHC|Kraft Heinz|36
MDLZ|Mondelez|70|0.17
GIS|General Mills|70|0.17
EL|Estee Lauder|140|0.4
NEE|NextEra Energy|68
DUK|Duke Energy|98|0.17
SO|Southern Company|72|0.17
D|Dominion Energy|50
COP|ConocoPhillips|125
SLB|Schlumberger|50
OXY|Occidental Petroleum|65
EOG|EOG Resources|130
PSX|Phillips 66|150
MPC|Marathon Petroleum|190
KMI|Kinder Morgan|19
AMT|American Tower|190
PLD|Prologis|105
SPG|Simon Property Group|150
O|Realty Income|54|0.18
EQIX|Equinix|780
ADP|Automatic Data Processing|245
PAYX|Paychex|120
ACN|Accenture|310
DELL|Dell Technologies|120|0.45
HPQ|HP Inc|30
HPE|Hewlett Packard Enterprise|17
WDAY|Workday|250
TEAM|Atlassian|190|0.45
MELI|MercadoLibre|1600|0.4
NU|Nu Holdings|11|0.45
ARM|Arm Holdings ADR|110|0.6
SMCI|Super Micro Computer|800|0.8
ROKU|Roku|60|0.55
EBAY|eBay|52
ETSY|Etsy|65|0.5
DASH|DoorDash|120|0.45
LYFT|Lyft|16|0.55
SNAP|Snap|11|0.6
PINS|Pinterest|38|0.45
RBLX|Roblox|36|0.5
EA|Electronic Arts|130
TTWO|Take-Two Interactive|145
HOOD|Robinhood Markets|19|0.6
MARA|Marathon Digital|19|0.9
MSTR|MicroStrategy|1400|0.9
DAL|Delta Air Lines|48|0.35
UAL|United Airlines|50|0.4
AAL|American Airlines|14|0.4
CCL|Carnival|15|0.45
MAR|Marriott|240
HLT|Hilton|205
`,
  },
  {
    code: 'UK',
    name: 'London Stock Exchange',
    suffix: '.UK',
    country: 'GB',
    currency: 'GBX',
    timeZone: 'Europe/London',
    sessions: [session(weekdays, '08:00', '16:30')],
    hoursPerDay: 8.5,
    defaultVolatility: 0.22,
    listings: `
HSBA|HSBC Holdings|650
SHEL|Shell|2800
BP|BP|500
AZN|AstraZeneca|11500
ULVR|Unilever|4200|0.16
GSK|GSK|1700
RIO|Rio Tinto|5300|0.28
BARC|Barclays|200|0.3
LLOY|Lloyds Banking Group|52|0.28
VOD|Vodafone Group|70
BATS|British American Tobacco|2400
DGE|Diageo|2800
GLEN|Glencore|460|0.3
REL|RELX|3300
NG|National Grid|1050|0.18
LSEG|London Stock Exchange Group|9000
TSCO|Tesco|300
RR|Rolls-Royce Holdings|420|0.35
BT.A|BT Group|110
PRU|Prudential|750
AAL|Anglo American|2300|0.35
IAG|International Airlines Group|160|0.4
NWG|NatWest Group|300
`,
  },
  {
    code: 'DE',
    name: 'Xetra',
    suffix: '.DE',
    country: 'DE',
    currency: 'EUR',
    timeZone: 'Europe/Berlin',
    sessions: [session(weekdays, '09:00', '17:30')],
    hoursPerDay: 8.5,
    defaultVolatility: 0.24,
    listings: `
SAP|SAP|175
SIE|Siemens|175
ALV|Allianz|260|0.2
DTE|Deutsche Telekom|22|0.18
BAS|BASF|48
BAYN|Bayer|28|0.35
BMW|BMW|105
MBG|Mercedes-Benz Group|70
VOW3|Volkswagen Vz|115
ADS|Adidas|220
DBK|Deutsche Bank|15|0.3
MUV2|Munich Re|420|0.2
IFX|Infineon Technologies|34|0.35
DHL|DHL Group|40
RWE|RWE|33
EOAN|E.ON|12.5|0.2
HEN3|Henkel Vz|72|0.18
CBK|Commerzbank|14|0.35
DB1|Deutsche Boerse|185|0.18
`,
  },
  {
    code: 'FR',
    name: 'Euronext Paris',
    suffix: '.FR',
    country: 'FR',
    currency: 'EUR',
    timeZone: 'Europe/Paris',
    sessions: [session(weekdays, '09:00', '17:30')],
    hoursPerDay: 8.5,
    defaultVolatility: 0.24,
    listings: `
MC|LVMH|800
OR|L'Oreal|430|0.2
TTE|TotalEnergies|65
SAN|Sanofi|90|0.18
AIR|Airbus|160
BNP|BNP Paribas|65|0.28
SU|Schneider Electric|220
AI|Air Liquide|180|0.17
KER|Kering|330|0.35
RMS|Hermes International|2300
DG|Vinci|110|0.18
CS|AXA|34|0.2
GLE|Societe Generale|25|0.35
ACA|Credit Agricole|14
RNO|Renault|46|0.35
`,
  },
  {
    code: 'ES',
    name: 'Bolsa de Madrid',
    suffix: '.ES',
    country: 'ES',
    currency: 'EUR',
    timeZone: 'Europe/Madrid',
    sessions: [session(weekdays, '09:00', '17:30')],
    hoursPerDay: 8.5,
    defaultVolatility: 0.24,
    listings: `
SAN|Banco Santander|4.6|0.28
BBVA|BBVA|10|0.28
ITX|Inditex|44
IBE|Iberdrola|12|0.18
TEF|Telefonica|4.1
REP|Repsol|14.5
AMS|Amadeus IT Group|60
CABK|CaixaBank|5|0.3
FER|Ferrovial|36
ELE|Endesa|18|0.2
`,
  },
  {
    code: 'IT',
    name: 'Borsa Italiana',
    suffix: '.IT',
    country: 'IT',
    currency: 'EUR',
    timeZone: 'Europe/Rome',
    sessions: [session(weekdays, '09:00', '17:30')],
    hoursPerDay: 8.5,
    defaultVolatility: 0.25,
    listings: `
ENI|Eni|14.5
ENEL|Enel|6.3|0.2
ISP|Intesa Sanpaolo|3.4|0.28
UCG|UniCredit|35|0.32
RACE|Ferrari|390
STLAM|Stellantis|20|0.32
G|Assicurazioni Generali|23|0.2
`,
  },
  {
    code: 'NL',
    name: 'Euronext Amsterdam',
    suffix: '.NL',
    country: 'NL',
    currency: 'EUR',
    timeZone: 'Europe/Amsterdam',
    sessions: [session(weekdays, '09:00', '17:30')],
    hoursPerDay: 8.5,
    defaultVolatility: 0.25,
    listings: `
ASML|ASML Holding|880|0.35
INGA|ING Groep|15.5|0.28
PHIA|Philips|25|0.35
AD|Ahold Delhaize|28|0.17
HEIA|Heineken|90|0.2
PRX|Prosus|33|0.35
`,
  },
  {
    code: 'CH',
    name: 'SIX Swiss Exchange',
    suffix: '.CH',
    country: 'CH',
    currency: 'CHF',
    timeZone: 'Europe/Zurich',
    sessions: [session(weekdays, '09:00', '17:30')],
    hoursPerDay: 8.5,
    defaultVolatility: 0.2,
    listings: `
NESN|Nestle|92|0.15
ROG|Roche Holding|240|0.18
NOVN|Novartis|90|0.17
UBSG|UBS Group|27|0.28
ZURN|Zurich Insurance Group|460|0.17
ABBN|ABB|45|0.22
`,
  },
  {
    code: 'JP',
    name: 'Tokyo Stock Exchange',
    suffix: '.JP',
    country: 'JP',
    currency: 'JPY',
    timeZone: 'Asia/Tokyo',
    // TSE extended the afternoon session to 15:30 in November 2024.
    sessions: [session(weekdays, '09:00', '11:30'), session(weekdays, '12:30', '15:30')],
    hoursPerDay: 5.5,
    defaultVolatility: 0.25,
    listings: `
7203|Toyota Motor|3400
6758|Sony Group|13000
9984|SoftBank Group|8000|0.4
6861|Keyence|68000
8306|Mitsubishi UFJ Financial|1550|0.28
9432|NTT|170|0.18
7974|Nintendo|8000|0.3
6098|Recruit Holdings|6700|0.3
8035|Tokyo Electron|33000|0.45
4063|Shin-Etsu Chemical|6300
7267|Honda Motor|1750
9983|Fast Retailing|41000
`,
  },
  {
    code: 'HK',
    name: 'Hong Kong Exchanges',
    suffix: '.HK',
    country: 'HK',
    currency: 'HKD',
    timeZone: 'Asia/Hong_Kong',
    sessions: [session(weekdays, '09:30', '12:00'), session(weekdays, '13:00', '16:00')],
    hoursPerDay: 5.5,
    defaultVolatility: 0.32,
    listings: `
0700|Tencent Holdings|380
9988|Alibaba Group|78
0005|HSBC Holdings|65|0.22
1299|AIA Group|58
0941|China Mobile|70|0.2
3690|Meituan|110|0.45
1810|Xiaomi|17|0.4
2318|Ping An Insurance|36
`,
  },
  {
    code: 'AU',
    name: 'Australian Securities Exchange',
    suffix: '.AU',
    country: 'AU',
    currency: 'AUD',
    timeZone: 'Australia/Sydney',
    sessions: [session(weekdays, '10:00', '16:00')],
    hoursPerDay: 6,
    defaultVolatility: 0.22,
    listings: `
BHP|BHP Group|44|0.26
CBA|Commonwealth Bank of Australia|118
CSL|CSL|280|0.2
NAB|National Australia Bank|34
WBC|Westpac Banking|27
ANZ|ANZ Group|28
WES|Wesfarmers|66|0.18
MQG|Macquarie Group|190
FMG|Fortescue|25|0.4
WDS|Woodside Energy|28
`,
  },
  {
    code: 'BR',
    name: 'B3',
    suffix: '.BR',
    country: 'BR',
    currency: 'BRL',
    timeZone: 'America/Sao_Paulo',
    sessions: [session(weekdays, '10:00', '17:00')],
    hoursPerDay: 7,
    defaultVolatility: 0.32,
    listings: `
PETR4|Petrobras PN|38
VALE3|Vale ON|62
ITUB4|Itau Unibanco PN|33
BBDC4|Bradesco PN|13
BBAS3|Banco do Brasil ON|27
ABEV3|Ambev ON|12|0.22
WEGE3|WEG ON|38
B3SA3|B3 ON|11
`,
  },
  {
    code: 'CA',
    name: 'Toronto Stock Exchange',
    suffix: '.CA',
    country: 'CA',
    currency: 'CAD',
    timeZone: 'America/Toronto',
    sessions: [session(weekdays, '09:30', '16:00')],
    hoursPerDay: 6.5,
    defaultVolatility: 0.22,
    listings: `
RY|Royal Bank of Canada|135|0.18
TD|Toronto-Dominion Bank|80|0.18
ENB|Enbridge|49|0.18
CNR|Canadian National Railway|170|0.2
SHOP|Shopify|95|0.6
BN|Brookfield Corporation|56
CNQ|Canadian Natural Resources|50|0.3
BMO|Bank of Montreal|125
`,
  },
];
