// @ts-check
/**
 * Every user-visible string of the web board and the game page, with its English
 * default. The server injects translations as `window.TAVLA_TEXT` (message key ->
 * text); a key it leaves out falls back to the English here.
 *
 * The object between the BEGIN and END markers is strict JSON (double-quoted keys and
 * strings, no trailing comma) so that a server's translation catalog can read the keys
 * without running JavaScript. `{name}` in a text is replaced by the parameter `name`.
 */

/* BEGIN TAVLA_TEXT */
export const DEFAULT_TEXT = {
  "board.label": "Board",
  "game.tabla": "Tabla",
  "game.antitabla": "Antitabla",
  "game.chelebi": "Chelebi",
  "game.tapa": "Tapa",
  "game.gulbara": "Gul bara",
  "game.indiyka": "Indiyka",
  "game.abluka": "Abluka",
  "colour.white": "White",
  "colour.black": "Black",
  "point.label": "Point {n}",
  "point.empty": "empty",
  "point.run": "{count} {colour}",
  "point.run_pinned": "{count} {colour} pinned",
  "bar.label": "{colour} on the bar: {count}",
  "off.label": "{colour} borne off: {count}",
  "removed.label": "{colour} removed: {count}",
  "waiting.label": "{colour} not yet entered: {count}",
  "pips.label": "{colour} pip count: {n}",
  "pips.short": "pips",
  "cube.label": "Doubling cube {value}",
  "cube.middle": "in the middle",
  "cube.owned": "owned by {colour}",
  "cube.offered": "offered by {colour}",
  "dice.label": "{colour} rolled {dice}",
  "dice.left": "Dice left: {dice}",
  "dice.completing": "{colour} completes the double: {dice}",
  "square.label": "Square {square}",
  "square.king": "{colour} king",
  "square.blocker": "blocked",
  "square.empty": "empty",
  "spot.source": "can move",
  "spot.selected": "selected",
  "spot.target": "move here",
  "spot.target_hit": "move here and hit",
  "spot.target_pin": "move here and pin",
  "spot.blocker": "put a blocker here",
  "outcome.win": "{colour} wins {points}",
  "outcome.void": "Void game: nobody scores",
  "outcome.points_1": "1 point",
  "outcome.points_n": "{n} points",
  "played.label": "Played: {steps}",
  "btn.roll": "Roll",
  "btn.double": "Double",
  "btn.take": "Take",
  "btn.drop": "Drop",
  "btn.beaver": "Beaver",
  "btn.raccoon": "Raccoon",
  "btn.resign": "Resign",
  "btn.accept": "Accept",
  "btn.decline": "Decline",
  "btn.undo": "Undo",
  "btn.commit": "Commit",
  "btn.break": "Take a break",
  "btn.flip": "Flip board",
  "btn.home": "Home left/right",
  "aria.roll": "Roll the dice",
  "aria.double": "Offer a double",
  "aria.take": "Take the double",
  "aria.drop": "Drop the double and lose the game",
  "aria.beaver": "Beaver: take and redouble",
  "aria.raccoon": "Raccoon: redouble the beaver",
  "aria.resign": "Offer to resign",
  "aria.accept": "Accept the resignation",
  "aria.decline": "Decline the resignation",
  "aria.undo": "Take back the last step",
  "aria.commit": "Commit the turn",
  "aria.break": "Take a break before the next game",
  "aria.flip": "Turn the board round",
  "aria.home": "Put the home board on the other side",
  "aria.resign_level": "Resign how many points",
  "key.roll": "r",
  "key.double": "d",
  "key.take": "t",
  "key.drop": "p",
  "key.beaver": "b",
  "key.raccoon": "k",
  "key.resign": "s",
  "key.accept": "a",
  "key.decline": "n",
  "key.undo": "u",
  "key.commit": "c",
  "key.break": "w",
  "resign.single": "single game",
  "resign.gammon": "gammon",
  "resign.backgammon": "backgammon",
  "game.label": "Game",
  "conn.connecting": "Connecting…",
  "conn.lost": "Connection lost, reconnecting…",
  "conn.open": "Connected",
  "player.you": "(you)",
  "player.bot": "bot",
  "bot.beginner": "Tavla bot (beginner)",
  "bot.easy": "Tavla bot (easy)",
  "bot.medium": "Tavla bot (medium)",
  "bot.hard": "Tavla bot (hard)",
  "bot.max": "Tavla bot (strongest)",
  "player.away": "disconnected for {time}",
  "player.offline": "disconnected",
  "player.not_come": "has not come yet",
  "player.to_act": "to act",
  "clock.label": "Clock",
  "clock.reserve": "reserve",
  "score.label": "Score",
  "match.length": "Match to {n}",
  "match.money": "Single game",
  "match.sets": "Sets: {n}",
  "match.crawford": "Crawford game",
  "match.game": "Game {n}",
  "match.over": "{name} wins the match",
  "match.drawn": "The match is drawn",
  "after.rematch": "Rematch",
  "after.archive": "Replay in the archive",
  "after.lobby": "Back to the lobby",
  "after.offered": "Rematch offered: your opponent sees it in the lobby",
  "match.forfeit_flag": "{name} lost on time",
  "match.forfeit_warnings": "{name} lost by warnings",
  "match.forfeit_absent": "{name} did not come",
  "forfeit.button": "{name} forfeits",
  "forfeit.both": "Both forfeit",
  "forfeit.confirm": "{name} loses the match at once. This cannot be undone. Go on?",
  "forfeit.confirm_both": "Both players lose the match at once (neither came). This cannot be undone. Go on?",
  "match.forfeit_forfeit": "{name} forfeited the match",
  "match.void": "The match was voided: nobody wins it",
  "wait.nobody": "The match begins when both players have come",
  "wait.for": "Waiting for {name}: the match begins when both players are here",
  "wait.credit_point": "{name} is credited a point in {time}",
  "wait.credit_set": "{name} is credited a set in {time}",
  "wait.forfeit_point_1": "1 point wins by forfeit",
  "wait.forfeit_points": "{n} points win by forfeit",
  "wait.forfeit_set_1": "1 set wins by forfeit",
  "wait.forfeit_sets": "{n} sets win by forfeit",
  "turn.you_roll": "Your turn: roll the dice",
  "turn.you_roll_double": "Your turn: roll or double",
  "turn.you_move": "Your turn: play your move",
  "turn.you_commit": "Your move is complete: commit it or undo",
  "turn.you_double": "{name} doubles to {value}: take or drop",
  "turn.you_raccoon": "{name} beavered: raccoon or roll",
  "turn.you_resign": "{name} offers to resign ({level}): accept or decline",
  "turn.you_break": "Between games: take a break or wait",
  "turn.opening": "Opening roll",
  "turn.between": "The next game starts soon",
  "turn.waiting": "Waiting for {name}",
  "turn.bot_thinking": "{name} is thinking",
  "turn.spectating": "{name} to act",
  "moves.title": "Moves",
  "moves.none": "No moves yet",
  "moves.entry": "{name}: {text}",
  "moves.entry_dice": "{name} {dice}: {text}",
  "chat.title": "Chat",
  "chat.placeholder": "Write a message",
  "chat.send": "Send",
  "chat.off": "Chat is off",
  "chat.close": "Close the chat",
  "chat.closed": "The arbiter closed the chat",
  "warn.title": "Arbiter's warnings",
  "warn.count": "{name}: {count} of {most} warnings",
  "warn.line": "Warning to {name}",
  "warn.line_note": "Warning to {name}: {note}",
  "warn.note": "Note with the warning (optional)",
  "warn.button": "Warn {name}",
  "dice.verify_title": "Verify the dice",
  "dice.verify_help": "Before the game the server committed to its dice seed with this SHA-256 hash. After the game it publishes the seed: hash it and compare, then replay the dice from the seed and your client seed.",
  "dice.commitment": "Server seed commitment (SHA-256)",
  "dice.client_seed": "Client seed",
  "spectators.count": "Spectators: {n}",
  "spectators.arbiter": "an arbiter is watching",
  "error.malformed": "The server did not understand the message",
  "error.stale": "The board changed before your move arrived: try again",
  "error.old_seq": "That action was already handled",
  "error.not_player": "Spectators cannot act",
  "error.not_your_turn": "It is not your turn",
  "error.illegal": "That is not allowed",
  "error.chat_off": "Chat is off",
  "error.over": "The game is over",
  "error.rate_limited": "Too many messages: slow down",
  "error.unknown": "Error: {code}",
  "replay.title": "Replay",
  "replay.loading": "Loading the replay…",
  "replay.error": "The replay could not be loaded",
  "replay.first": "First",
  "replay.previous": "Previous",
  "replay.next": "Next",
  "replay.last": "Last",
  "replay.slider": "Step through the match",
  "replay.position": "Step {n} of {total}",
  "replay.start": "Start of the match",
  "replay.game_start": "Game {n} begins",
  "replay.opening": "Opening roll: {dice}",
  "replay.roll": "{name} rolls {dice}",
  "replay.no_move": "no move",
  "replay.flag": "{name} runs out of time",
  "replay.warn": "{name} is warned",
  "replay.warn_note": "{name} is warned: {note}",
  "analysis.loading": "The bot is reviewing the game…",
  "analysis.error": "The analysis could not be made",
  "analysis.player": "Player",
  "analysis.decisions": "Decisions",
  "analysis.error_rate": "Error rate",
  "analysis.doubtful": "Doubtful",
  "analysis.errors": "Errors",
  "analysis.blunders": "Blunders",
  "analysis.cube_decisions": "Cube decisions",
  "analysis.cube_rate": "Cube error rate",
  "analysis.luck": "Luck",
  "analysis.note": "Turns reviewed at 0 plies. An error rate is the equity lost per decision, in thousandths of a point; luck is the equity the dice gave beyond average rolls.",
  "analysis.note_deeper": "Turns reviewed one roll deep. An error rate is the equity lost per decision, in thousandths of a point; luck is the equity the dice gave beyond average rolls.",
  "analysis.chart": "Equity for {name} after each turn",
  "analysis.marked": "Marked decisions",
  "analysis.none_marked": "No turn or cube decision lost 0.04 or more.",
  "analysis.move": "{name} played {played}; best {best} ({loss}, {mark})",
  "analysis.cube_entry": "{name}: {chosen}; right: {right} ({loss}, {mark})",
  "analysis.mark.doubtful": "doubtful",
  "analysis.mark.error": "error",
  "analysis.mark.blunder": "blunder",
  "analysis.choice.double": "double",
  "analysis.choice.no_double": "no double",
  "analysis.choice.take": "take",
  "analysis.choice.pass": "pass",
  "analysis.choice.beaver": "beaver",
  "analysis.choice.too_good_to_double": "too good to double",
  "analysis.mark.none": "cleared",
  "analysis.move_rolled": "{name} played {played}; best {best} (the bot: {loss}; rolled out: {rolled} ± {error}, {mark})",
  "analysis.rollout_explain": "A rollout plays each marked turn and the bot's best on many times, on the same dice, to check what the turn really lost. It takes a minute or more.",
  "analysis.rollout_run": "Roll out the marked turns",
  "analysis.rollout_register": "Registered players can have the marked turns rolled out.",
  "analysis.rollout_waiting": "The rollout is starting…",
  "analysis.rollout_progress": "Rolling out the marked turns: {done} of {total}",
  "analysis.rollout_failed": "The rollout could not be made. Try again later.",
  "analysis.rollout_note": "The marked turns were rolled out ({how}); their losses and marks, and the totals, are the rollout's.",
  "analysis.rollout_how": "{trials} games of {turns} turns from each",
  "analysis.rollout_how_reduced": "{trials} games of {turns} turns from each, the dice's luck taken out",
  "analysis.rollout_how_end": "{trials} games to the end from each"
};
/* END TAVLA_TEXT */

/**
 * The text of `key` in the page's language, `{name}` parameters filled in.
 * @param {string} key
 * @param {Record<string, string | number>} [params]
 * @returns {string}
 */
export function t(key, params) {
  /** @type {Record<string, string>} */
  const injected = /** @type {any} */ (globalThis).TAVLA_TEXT || {};
  /** @type {Record<string, string>} */
  const defaults = DEFAULT_TEXT;
  let text = injected[key] ?? defaults[key] ?? key;
  if (params) {
    text = text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
  }
  return text;
}

/**
 * `value` with `places` decimals as the page's language writes numbers: Turkish and
 * Bulgarian with a decimal comma ("0,163"); `grouped` separates the thousands as the
 * language does ("1,234.50", "1.234,50", "1 234,50"), as the server's pages do.
 * @param {number} value
 * @param {number} places
 * @param {boolean} [grouped]
 * @returns {string}
 */
export function decimal(value, places, grouped = false) {
  // "always": Bulgarian groups four-digit amounts too, as the server's Babel does.
  const style = { minimumFractionDigits: places, maximumFractionDigits: places, useGrouping: grouped ? "always" : false };
  return new Intl.NumberFormat(pageLanguage(), /** @type {any} */ (style)).format(value);
}

/** The page's language ("en", "tr", "bg"): its `<html lang>`. */
function pageLanguage() {
  return document.documentElement.lang || "en";
}

/** The spaces a language that groups with one may be typed with: a plain space, the
 * no-break space its locale data writes (Bulgarian "1 234,50"), a narrow one. */
const SPACES = " \u00a0\u202f";

/** @param {string} text @returns {string} `text` matched literally in a RegExp */
function literally(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * An amount of money typed in `language` (the page's by default), in whole cents;
 * text that is not one, or that could be read as two different amounts, stays as it
 * is, for the server to refuse with its reason (docs/translating.md, "Numbers"). As a
 * careful cashier reads it:
 *
 * - the language's own form, its decimal mark with one or two decimals and its thousands
 *   grouped in proper groups of three, or not grouped at all: English "1,234.50",
 *   "1234.5", "1,500"; Turkish "1.234,50", "1.500" (fifteen hundred); Bulgarian
 *   "1 234,50", "1 500" (any space: a plain one, the no-break one it is written with);
 * - the other mark (a point in Turkish and Bulgarian, a comma in English) before one or
 *   two decimals, alone in an ungrouped amount, as people type on any keyboard:
 *   "12.50" in Turkish, "12,50" in English; it cannot be a group of three;
 * - nothing else: three decimals ("1.500" in English or Bulgarian, "1,500" in Turkish:
 *   a thousand and a half, or one and a half?), a group not of three ("1.23.456"),
 *   the other language's grouping ("1.234,50" in English), a sign, a currency, a
 *   leading zero before a group ("0.500" in Turkish), more than nine whole digits.
 * @param {string} text
 * @param {string} [language]
 * @returns {number | string}
 */
export function cents(text, language = pageLanguage()) {
  const parts = new Intl.NumberFormat(language, /** @type {any} */ ({ useGrouping: "always", minimumFractionDigits: 1 }))
    .formatToParts(1234.5);
  const mark = parts.find((part) => part.type === "decimal")?.value || ".";
  const group = parts.find((part) => part.type === "group")?.value || ",";
  const separator = SPACES.includes(group) ? `[${SPACES}]` : literally(group);
  const own = new RegExp(`^(\\d{1,9}|[1-9]\\d{0,2}(?:${separator}\\d{3})+)(?:${literally(mark)}(\\d{1,2}))?$`);
  const other = new RegExp(`^(\\d{1,9})${mark === "," ? "\\." : ","}(\\d{1,2})$`);
  const typed = text.trim();
  const found = own.exec(typed) || other.exec(typed);
  if (!found) return text;
  const whole = found[1].replace(/\D/g, "");
  if (whole.length > 9) return text;
  return Number(whole) * 100 + Number((found[2] || "").padEnd(2, "0"));
}

/**
 * A seat's name as the page shows it: the site's bot (its `level`, docs/API.md) in the
 * page's language, anybody else by `name`.
 * @param {string} name
 * @param {string | null | undefined} level
 * @returns {string}
 */
export function seatName(name, level) {
  const key = `bot.${level}`;
  return level && key in DEFAULT_TEXT ? t(key) : name;
}
