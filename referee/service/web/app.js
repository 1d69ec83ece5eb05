// The table's dispute page: plain JavaScript over the service's JSON API
// (docs/service.md). Everything a user wrote is shown with textContent, never
// as HTML; the board picture is shown as an image.
//
// Two ways to use it: at / a transcript is pasted or loaded and checked here;
// at /t/TOKEN the page follows a table kept by the service, as that link sees
// it (a player: as that player; the host: everything, and may correct).
//
// Every answer says which request it answers (reading, viewpoint, revision);
// an answer to a question the page no longer asks is dropped, never shown.
//
// What the player must see is kept until they have seen it: a line refused (a
// conflict with another phone's line, say) is a notice they dismiss, and the line
// stays in its box. A lost connection is said while it lasts, the table shown
// meanwhile is marked stale, and when the service answers again the page catches
// up and says how many revisions came meanwhile.
"use strict";

const $ = (selector) => document.querySelector(selector);
const NARROW = window.matchMedia("(max-width: 760px)");
const ZOOMS = [1, 1.5, 2, 3, 4];
const FOLLOW_MS = 2000;
const FOLLOW_TIMEOUT_MS = 10000;  // a look at the table's revision that takes longer: the connection is lost

const page = {
  name: "transcript.txt", report: null, games: {}, selected: null, board: null, zoom: 0,
  token: (location.pathname.match(/^\/t\/([A-Za-z0-9_-]+)$/) || [])[1] || null,
  table: null,          // the table as this link sees it (table mode)
  revision: null,       // the table's revision shown
  generation: 0,        // bumped whenever what the page asks about changes
  selection: 0,         // bumped whenever another move is chosen
  editing: false,       // a line is being edited: following the table waits
  gone: false,          // the host took this link's player off the table (410): nothing more is asked
  following: false,     // a look at the table's revision is on its way
  unanswered: null,     // the service cannot be reached: {since: the revision shown then, code}
};

// An answer of the service, or the error it answered with. When no answer comes (the network is
// down, or the service does not answer: a 5xx that is not the referee's own error), the error's
// code is "offline" or "unavailable" (``unanswered``), and its message says so plainly.
async function api(path, body, timeout) {
  const options = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  };
  if (timeout) options.signal = AbortSignal.timeout(timeout);
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw { code: "offline", status: 0, message: page.token ? "connection lost: retrying…" : "connection lost" };
  }
  let data;
  try { data = await response.json(); } catch (e) { data = {}; }
  if (!response.ok) {
    if (response.status >= 500 && !(data.error && data.error.code === "internal")) {
      const retrying = page.token ? ": retrying…" : "";
      throw { code: "unavailable", status: response.status,
              message: `the service is not answering (HTTP ${response.status})${retrying}` };
    }
    const error = data.error || { code: "http", message: `${response.status} ${response.statusText}` };
    error.status = response.status;
    throw error;
  }
  return data;
}

function unanswered(error) {
  return error.code === "offline" || error.code === "unavailable";
}

function describe(error) {
  return unanswered(error) ? error.message : `${where(error)}error[${error.code}]: ${error.message}`;
}

// -- what the page asks about ------------------------------------------------------------------

function choice() {
  return {
    rules: $("#reading").value || null,
    as: page.token && !page.table.you.host ? page.table.you.player : ($("#viewpoint").value || null),
    revision: page.token ? page.revision : null,
  };
}

function changed() {
  page.generation += 1;
}

// The question, as the page now asks it; ``fresh(asked, answer)`` tells whether
// an answer still belongs on the page.
function ask(job, extra) {
  const asked = { ...choice(), generation: page.generation };
  let path, body;
  if (page.token) {
    path = `/api/tables/${page.token}/${job}`;
    body = { revision: asked.revision, ...extra };
    if (asked.rules) body.rules = asked.rules;
    if (page.table.you.host && asked.as) body.as = asked.as;
  } else {
    path = `/api/${job}`;
    body = { transcript: $("#transcript").value, name: page.name, tolerant: job !== "moves", ...extra };
    if (asked.rules) body.rules = asked.rules;
    if (asked.as) body.as = asked.as;
  }
  return { asked, answer: api(path, body) };
}

function fresh(asked, answer) {
  if (asked.generation !== page.generation) return false;
  const said = answer.request || {};
  return (said.rules || null) === asked.rules && (said.as || null) === asked.as
    && (said.revision ?? null) === asked.revision;
}

// -- small helpers -----------------------------------------------------------------------------

function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function fillSelect(select, options, keep) {
  const first = select.options[0];
  select.replaceChildren(first);
  for (const [value, label] of options) {
    const option = element("option", label);
    option.value = value;
    select.append(option);
  }
  select.value = options.some(([value]) => value === keep) ? keep : "";
}

function where(error) {
  return error.line ? `${error.file || page.name}:${error.line}:${error.column}: ` : "";
}

function text() {
  return page.token ? page.table.transcript : $("#transcript").value;
}

function setStatus(message, className) {
  $("#status").textContent = message;
  $("#status").className = className || "";
}

// -- checking -------------------------------------------------------------------------------

async function check(selectLast) {
  setStatus("Checking…");
  $("#check").disabled = true;
  const { asked, answer } = ask("check", {});
  try {
    const report = await answer;
    if (!fresh(asked, report)) return;
    page.report = report;
    showLines(report);
    const game = page.games[report.game];
    fillSelect($("#reading"), game ? game.readings.map((r) => [r.reading, `${r.reading} (${r.source})`]) : [],
               $("#reading").value);
    if (!page.token || page.table.you.host) {
      fillSelect($("#viewpoint"), report.players.map((p) => [p, p]), $("#viewpoint").value);
    }
    setStatus(summary(report), report.legal && !report.error && !(report.unread || []).length ? "legal" : "illegal");
    showNow();
    const target = selectLast ? report.marks[report.marks.length - 1]
      : report.marks.find((m) => m.number === page.selected);
    if (target) await select(target.number);
    else hideDetail();
  } catch (error) {
    if (asked.generation !== page.generation) return;
    if (unanswered(error) && page.token) {  // the lines shown stay, marked stale, until the service answers
      lostConnection(error);
      return;
    }
    page.report = null;
    showLines(null, error);
    setStatus(describe(error), "illegal");
    hideDetail();
  } finally {
    $("#check").disabled = false;
  }
}

function summary(report) {
  const illegal = new Set(report.problems.map((p) => `${p.line}:${p.number}`)).size;
  const parts = [`${report.moves_checked} moves checked (rules: ${report.rules}${report.viewpoint ? `, as ${report.viewpoint}` : ""})`];
  parts.push(illegal ? `${illegal} illegal` : "every move is legal");
  const unread = (report.unread || []).length;
  if (unread) parts.push(`${unread} line${unread > 1 ? "s" : ""} not read`);
  if (report.disputes.length) parts.push(`${report.disputes.length} disputed`);
  const assumed = (report.assumptions || []).length;
  if (assumed) parts.push(`${assumed} assumption${assumed > 1 ? "s" : ""} about what the record means`);
  if (report.outcome) parts.push(report.outcome);
  if (report.error) {
    const at = report.error.line ? ` from line ${report.error.line} on` : "";
    parts.push(`the record cannot be followed${at}: ${report.error.message}`);
  }
  return parts.join("; ") + ".";
}

function canEdit() {
  return !page.token || page.table.you.host;
}

function showLines(report, error) {
  parkDetail();
  const list = $("#lines");
  list.replaceChildren();
  const lines = text().replace(/\r\n?/g, "\n").split("\n");
  if (lines.length && lines[lines.length - 1] === "") lines.pop();
  const marks = new Map();
  const problems = new Map();
  const unread = new Map();
  const assumed = new Map();
  const stop = report && report.error && report.error.line ? report.error : null;
  if (report) {
    for (const assumption of report.assumptions || []) {
      if (!assumed.has(assumption.line)) assumed.set(assumption.line, []);
      assumed.get(assumption.line).push(assumption);
    }
    for (const mark of report.marks) {
      if (!marks.has(mark.line)) marks.set(mark.line, []);
      marks.get(mark.line).push(mark);
    }
    for (const problem of report.problems) {
      if (!problems.has(problem.line)) problems.set(problem.line, []);
      problems.get(problem.line).push(problem);
    }
    for (const line of report.unread || []) unread.set(line.line, line);
  }
  lines.forEach((line, index) => {
    const number = index + 1;
    const item = element("li", undefined, "line");
    item.value = number;
    item.dataset.line = number;
    const onLine = marks.get(number) || [];
    const broken = problems.get(number) || [];
    const code = element("code", line || " ");
    item.append(code);
    if (onLine.length) {
      const illegal = onLine.some((m) => !m.legal) || broken.length;
      item.classList.add("move", illegal ? "illegal" : "legal");
      if (onLine.some((m) => m.disputed)) item.classList.add("disputed");
      item.dataset.moves = onLine.map((m) => m.number).join(" ");
      item.tabIndex = 0;
      item.prepend(element("span", illegal ? "✗" : "✓", "mark"));
      const first = onLine.find((m) => !m.legal) || onLine[0];
      item.addEventListener("click", (event) => { if (!event.target.closest(".edit, .withdraw, form")) select(first.number); });
      item.addEventListener("keydown", (event) => { if (event.key === "Enter" && event.target === item) select(first.number); });
    } else if (broken.length) {
      item.classList.add("illegal");
    }
    for (const problem of broken) {
      const why = problem.breaches.map((b) => `${b.rule}: ${b.message}`).join("; ");
      const what = problem.number === null ? `(${problem.text}) ` : "";
      item.append(element("div", `${what}${why}`, "why"));
    }
    for (const assumption of assumed.get(number) || []) {
      item.classList.add("assumed");
      item.append(element("div", `assumed: ${assumption.text}`, "assumption"));
    }
    if (stop && stop.line === number) {
      item.classList.add("illegal", "unfollowed");
      if (!onLine.length) item.prepend(element("span", "!", "mark"));
      item.append(element("div", `the record cannot be followed from here (column ${stop.column}): ${stop.message}; `
        + "the lines below are not judged", "why"));
    }
    const notRead = unread.get(number) || (error && error.line === number ? error : null);
    if (notRead) {
      item.classList.add("illegal", "unread");
      item.prepend(element("span", "?", "mark"));
      const hint = canEdit() ? "" : " (the host can correct it)";
      item.append(element("div", `not read, column ${notRead.column}: ${notRead.message}${hint}`, "why"));
    }
    const tools = element("span", undefined, "tools");
    if (canEdit() && (onLine.length || notRead || (stop && stop.line === number))) {
      const edit = element("button", "✎", "edit");
      edit.type = "button";
      edit.title = "Edit or remove this line";
      edit.setAttribute("aria-label", `Edit or remove line ${number}`);
      edit.addEventListener("click", () => editLine(item, number, line));
      tools.append(edit);
    }
    if (canWithdraw(line)) {
      const withdraw = element("button", "Withdraw", "withdraw");
      withdraw.type = "button";
      withdraw.title = "Withdraw this line from the players' view";
      withdraw.setAttribute("aria-label", `Withdraw line ${number} from the players' view`);
      withdraw.addEventListener("click", () => confirmWithdrawal(item, number));
      tools.append(withdraw);
    }
    if (tools.childElementCount) item.prepend(tools);  // first: it stands at the line's right, its text beside it
    list.append(item);
  });
}

// -- correcting a line ------------------------------------------------------------------------

// The host of a table may withdraw any line but the header's game and players (those are corrected).
function canWithdraw(line) {
  return Boolean(page.token && page.table.you.host && line.trim() && !/^\s*(game|players)\s*:/i.test(line));
}

function confirmWithdrawal(item, number) {
  if (item.querySelector("form")) return;
  page.editing = true;
  const form = element("form", undefined, "line-edit line-withdraw");
  const question = element("span", `Withdraw line ${number} from the players' view? No player's link will show it `
    + "again, in any revision; yours still does.", "withdraw-question");
  const confirm = element("button", "Withdraw");
  confirm.type = "submit";
  const cancel = element("button", "Cancel");
  cancel.type = "button";
  form.append(question, confirm, cancel);
  item.append(form);
  confirm.focus();
  const done = () => { page.editing = false; form.remove(); };
  cancel.addEventListener("click", done);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    done();
    await withdrawLine(number);
  });
}

async function withdrawLine(number) {
  try {
    await api(`/api/tables/${page.token}/withdraw`, { revision: page.revision, line: number });
    dismiss("refused");
  } catch (error) {
    refused(`Line ${number} was not withdrawn`, error);
    if (unanswered(error)) return;
  }
  await loadTable(false);
}

function editLine(item, number, line) {
  if (item.querySelector("form")) return;
  page.editing = true;
  const form = element("form", undefined, "line-edit");
  const input = element("input");
  input.type = "text";
  input.value = line;
  input.setAttribute("aria-label", `Line ${number}`);
  const save = element("button", "Save");
  save.type = "submit";
  const remove = element("button", "Remove");
  remove.type = "button";
  const cancel = element("button", "Cancel");
  cancel.type = "button";
  form.append(input, save, remove, cancel);
  item.append(form);
  input.focus();
  const done = () => { page.editing = false; form.remove(); };
  cancel.addEventListener("click", done);
  remove.addEventListener("click", async () => { done(); await replaceLine(number, null); });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    done();
    await replaceLine(number, input.value);
  });
}

async function replaceLine(number, replacement) {
  const lines = text().split("\n");
  if (replacement === null) lines.splice(number - 1, 1);
  else lines[number - 1] = replacement.replace(/[\r\n]+/g, " ");
  const corrected = lines.join("\n");
  if (!page.token) {
    $("#transcript").value = corrected;
    changed();
    await check(false);
    return;
  }
  try {
    await api(`/api/tables/${page.token}/correct`, { revision: page.revision, transcript: corrected });
    dismiss("refused");
  } catch (error) {
    refused("Your correction was not made", error);
    if (unanswered(error)) return;
  }
  await loadTable(false);
}

// -- one move --------------------------------------------------------------------------------

async function select(number) {
  page.selected = number;
  const mine = ++page.selection;
  let selected = null;
  for (const item of document.querySelectorAll("#lines li.line")) {
    const moves = (item.dataset.moves || "").split(" ");
    const on = moves.includes(String(number));
    item.classList.toggle("selected", on);
    if (on && !selected) selected = item;
  }
  const detail = $("#detail");
  detail.hidden = false;
  placeDetail(selected);
  $("#detail-title").textContent = `Move ${number}…`;
  const explained = ask("explain", { move: number });
  const drawn = ask("board", { after: number });
  try {
    const [verdict, board] = await Promise.all([
      explained.answer, drawn.answer.catch((error) => ({ error, request: drawn.asked })),
    ]);
    if (mine !== page.selection || !fresh(explained.asked, verdict)) return;  // a newer question is asked
    showVerdict(verdict);
    if (board.error || fresh(drawn.asked, board)) showBoard(board, number);
  } catch (error) {
    if (mine !== page.selection || explained.asked.generation !== page.generation) return;
    $("#detail-title").textContent = `Move ${number}`;
    $("#verdict").textContent = describe(error);
    $("#verdict").className = "illegal";
    if (unanswered(error) && page.token) lostConnection(error);
  }
}

// On a narrow screen the explanation opens under the tapped line; on a wide
// one it stands in its own column.
function placeDetail(item) {
  const detail = $("#detail");
  if (NARROW.matches && item) {
    let holder = $("#detail-holder");
    if (!holder) {
      holder = element("li");
      holder.id = "detail-holder";
    }
    item.after(holder);
    holder.append(detail);
    detail.scrollIntoView({ block: "nearest" });
  } else {
    parkDetail();
  }
}

function parkDetail() {
  const detail = $("#detail");
  if (detail.parentElement !== $("main")) $("main").append(detail);
  const holder = $("#detail-holder");
  if (holder) holder.remove();
}

function hideDetail() {
  parkDetail();
  $("#detail").hidden = true;
}

function showVerdict(v) {
  $("#detail-title").textContent = `Move ${v.number}, ${v.period || "cycle"} ${v.cycle}, ${v.player}: '${v.text}' (line ${v.line})`
    .replace("undefined ", "");
  const verdict = $("#verdict");
  verdict.textContent = `${v.legal ? "LEGAL" : "ILLEGAL"}: ${v.move}`;
  verdict.className = v.legal ? "legal" : "illegal";
  const breaches = $("#breaches");
  breaches.replaceChildren();
  for (const b of v.breaches) {
    const item = element("li", undefined, "breach");
    const head = element("p");
    head.append(element("strong", b.rule, "rule-id"), ` (${b.title}): ${b.message}`);
    item.append(head);
    item.append(element("p", `rule (en): ${b.en}`, "rule-en"));
    if (b.reading !== "en") {
      item.append(element("p", `rule (${b.reading}): ${b.translation || "(this translation does not state it)"}`,
                          "rule-translation"));
    }
    breaches.append(item);
  }
  const notes = $("#notes");
  notes.replaceChildren(...v.warnings.map((w) => element("li", `warning: ${w}`)),
                        ...v.notes.map((n) => element("li", `note: ${n}`)));
  const alternatives = v.alternatives || [];
  const seenAs = v.viewpoint ? `, as ${v.viewpoint} sees it` : "";
  const instead = v.legal ? "may be done here" : "may be done instead";  // a legal move stands
  $("#alternatives-title").textContent = alternatives.length
    ? `What ${instead} (${v.alternatives_for}${seenAs})` : `Nothing ${instead} (${v.alternatives_for})`;
  $("#alternatives").replaceChildren(...alternatives.map((a) => element("li", a)));
  if (v.alternatives_complete === false) {
    const count = v.alternatives_total === null ? "a summary" : `${v.alternatives_total} legal moves in all`;
    $("#alternatives").append(element("li", `(${count})`, "more"));
  }
  showAlternativeLines(v.alternative_lines);
}

// Each alternative as a line of the notation (the answer's ``alternative_lines``): a tap puts it
// in the Next move box, ready to add (or to dispute with ??).
function showAlternativeLines(written) {
  const lines = written ? written.lines : [];
  $("#alternative-lines-title").textContent = lines.length ? "Tap a move to put it in the Next move box" : "";
  showLineChoices($("#alternative-lines"), written);
}

// The moves as buttons, each filling the Next move box with its line; a note when some are not there.
function showLineChoices(list, written) {
  const lines = written ? written.lines : [];
  list.replaceChildren(...lines.map((line) => {
    const item = element("li");
    const choice = element("button", line, "line-choice");
    choice.type = "button";
    choice.addEventListener("click", () => fillNextLine(line));
    item.append(choice);
    return item;
  }));
  if (lines.length && !written.complete) list.append(element("li", "(not every move is here: type the others)", "more"));
}

// What the role in control may do now, after the last move, as lines to tap (none when the moves are
// screened from this viewpoint, or the game has no move writer).
async function showNow() {
  const { asked, answer } = ask("moves", {});
  try {
    const moves = await answer;
    if (!fresh(asked, moves)) return;
    const written = moves.alternative_lines;
    $("#now").hidden = !(written && written.lines.length);
    $("#now-title").textContent = `What ${moves.control} may do now (tap one to put it in the box)`;
    showLineChoices($("#now-lines"), written);
  } catch (error) {
    if (asked.generation === page.generation) $("#now").hidden = true;
  }
}

function fillNextLine(line) {
  const box = $("#next-line");
  box.value = line;
  box.focus({ preventScroll: true });
  box.scrollIntoView({ block: "nearest" });
}

// -- the board: zoomable, its legend also as text ------------------------------------------------

function showBoard(board, number) {
  const figure = $("#board-figure");
  if (page.board) URL.revokeObjectURL(page.board);
  page.board = null;
  if (board.error) {
    figure.hidden = true;
    return;
  }
  page.board = URL.createObjectURL(new Blob([board.svg], { type: "image/svg+xml" }));
  $("#board").src = page.board;
  $("#board-caption").textContent = `The position after move ${number}.`;
  showLegend(board.svg);
  figure.hidden = false;
  zoom(0);
}

function showLegend(svg) {
  // the picture's legend as text, readable at any size (parsed, never inserted: no script runs)
  const drawing = new DOMParser().parseFromString(svg, "image/svg+xml");
  const legend = drawing.querySelector("g.legend");
  const items = [];
  if (legend) {
    for (const node of legend.querySelectorAll("text")) {
      if (node.getAttribute("text-anchor") !== "start") continue;  // a key's glyph ("2", "T"), drawn beside its words
      const words = node.textContent.trim();
      if (words) items.push(element("li", words, node.getAttribute("font-weight") === "bold" ? "head" : undefined));
    }
  }
  $("#board-legend").replaceChildren(...items);
}

function zoom(step) {
  page.zoom = step === 0 ? 0 : Math.max(0, Math.min(ZOOMS.length - 1, page.zoom + step));
  $("#board").style.width = `${ZOOMS[page.zoom] * 100}%`;
  $("#board-frame").classList.toggle("zoomed", page.zoom > 0);
  $("#zoom-out").disabled = page.zoom === 0;
  $("#zoom-in").disabled = page.zoom === ZOOMS.length - 1;
}

$("#zoom-in").addEventListener("click", () => zoom(1));
$("#zoom-out").addEventListener("click", () => zoom(-1));
$("#zoom-fit").addEventListener("click", () => zoom(0));

// -- a table kept by the service ------------------------------------------------------------------

async function loadTable(selectLast) {
  try {
    const table = await api(`/api/tables/${page.token}`);
    const moved = page.revision !== table.revision;
    const followed = page.revision !== null;
    page.table = table;
    page.name = table.name;
    if (moved) {
      page.revision = table.revision;
      changed();
      if (followed && !table.you.host && table.changed.kind === "withdrawn") {
        notify(`The host withdrew line ${table.changed.line} from the players' view.`, "withdrawn");
      }
    }
    showTableBar(table);
    if (moved || !page.report) await check(selectLast);
  } catch (error) {
    if (error.status === 410) leave(error);
    else if (unanswered(error)) lostConnection(error);
    else setStatus(describe(error), "illegal");
  }
}

function showTableBar(table) {
  $("#table-bar").hidden = false;
  const who = table.you.host ? "you are its host: you see everything and may correct a line"
    : `you are ${table.you.player}: the referee answers as you see the game`;
  $("#table-who").textContent = `Table '${table.name}' (${table.game}), revision ${table.revision}; ${who}.`;
  $("#tagline").textContent = "Add the moves as they are played; tap a move to see why.";
  const viewpoint = $("#viewpoint");
  if (!table.you.host) {
    fillSelect(viewpoint, [[table.you.player, table.you.player]], table.you.player);
    viewpoint.value = table.you.player;
    viewpoint.disabled = true;
  }
  if (table.links) {
    $("#table-links").hidden = false;
    // each player's link with its QR code, for the phones at the table; the host's link apart: it
    // sees every screen, so it is never in the list shown to the table
    $("#links").replaceChildren(...table.links.players.map((link) => {
      const item = element("li", undefined, "player-link");
      const code = element("img");
      code.src = link.qr;
      code.alt = `QR code of ${link.player}'s link`;
      code.className = "qr";
      item.append(element("strong", link.player), code, element("code", link.link), copyButton(link.link));
      return item;
    }));
    const host = $("#host-link");
    host.replaceChildren(element("span", "Your host link (sees every screen: keep it to yourself): "),
                         element("code", table.links.host.link), copyButton(table.links.host.link));
  }
}

function copyButton(text) {
  const button = element("button", "Copy");
  button.type = "button";
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = "Copied";
    } catch {  // no clipboard (a page not served over https, or refused): select the text to copy by hand
      const range = document.createRange();
      range.selectNodeContents(button.previousSibling);
      getSelection().removeAllRanges();
      getSelection().addRange(range);
      button.textContent = "Selected: copy it";
    }
  });
  return button;
}

// Every FOLLOW_MS the page looks at the table's revision, and reloads the table when it moved.
// While no answer comes it says so, every look, and when one comes it catches up.
async function follow() {
  if (document.hidden || page.editing || page.gone || page.following) return;
  page.following = true;
  try {
    const now = await api(`/api/tables/${page.token}/revision`, undefined, FOLLOW_TIMEOUT_MS);
    if (page.unanswered) await catchUp(now.revision);
    else if (now.revision !== page.revision) await loadTable(false);
  } catch (error) {
    if (error.status === 410) leave(error);
    else if (unanswered(error)) lostConnection(error);
    else setStatus(describe(error), "illegal");
  } finally {
    page.following = false;
  }
}

// No answer from the service: said at once and for as long as it lasts; the table shown
// meanwhile is marked stale (it is the table as it stood at that revision).
function lostConnection(error) {
  if (!page.token || page.gone) return;
  const shown = page.report && page.report.request ? page.report.request.revision : page.revision;
  if (!page.unanswered) page.unanswered = { since: shown ?? page.revision };
  page.unanswered.code = error.code;
  const connection = $("#connection");
  connection.hidden = false;
  connection.className = "lost";
  const since = page.unanswered.since === null ? "" : ` at revision ${page.unanswered.since}`;
  const said = `${error.message} What is shown below is the table as it stood${since}: it may be stale.`;
  if (connection.textContent !== said) connection.textContent = said;  // said again only when it changes
  $("#result").classList.add("stale");
}

// The service answers again, at revision ``now``: the table is read again and checked, and the
// player is told what was missed meanwhile.
async function catchUp(now) {
  const { since, code } = page.unanswered;
  page.unanswered = null;
  $("#connection").hidden = true;
  $("#connection").textContent = "";
  $("#result").classList.remove("stale");
  page.report = null;  // what was asked while no answer came is asked again
  changed();
  await loadTable(false);
  if (page.unanswered || page.gone) return;  // lost again meanwhile
  const missed = now - since;
  const back = code === "offline" ? "The connection is back" : "The service answers again";
  notify(missed ? `${back}: ${missed} revision${missed > 1 ? "s" : ""} came meanwhile; the table is brought up `
    + `to revision ${now}.` : `${back}: the table did not change meanwhile.`, "reconnected");
}

// -- notices: kept until the player has seen them ----------------------------------------------

function notify(message, kind) {
  dismiss(kind);
  const notice = element("li", undefined, `notice ${kind}`);
  notice.dataset.kind = kind;
  const seen = element("button", "OK", "seen");
  seen.type = "button";
  seen.setAttribute("aria-label", "Seen: dismiss this notice");
  seen.addEventListener("click", () => notice.remove());
  notice.append(element("span", message, "notice-text"), seen);
  $("#notices").append(notice);
}

function dismiss(kind) {
  for (const notice of document.querySelectorAll(`#notices li[data-kind="${kind}"]`)) notice.remove();
}

// A line or a correction that was refused, or never reached the service: what the player wrote
// stays where it was, to send again.
function refused(what, error) {
  if (unanswered(error)) {
    lostConnection(error);
    notify(`${what}: ${error.message.replace(/: retrying…$/, "")}; it is kept, to send again when the `
      + "connection is back.", "refused");
  } else if (error.code === "conflict") {
    notify(`${what}: ${error.message}. The table below now shows their change; yours is kept in the box.`, "refused");
  } else {
    notify(`${what}: ${describe(error)}`, "refused");
  }
}

// The host took this link's player off the table: the link answers nothing more, and the page
// stops showing the table.
function leave(error) {
  page.gone = true;
  page.unanswered = null;
  $("#connection").hidden = true;
  $("#result").classList.remove("stale");
  changed();
  page.report = null;
  hideDetail();
  $("#lines").replaceChildren();
  $("#input").hidden = true;
  $("#table-who").textContent = "This link no longer belongs to a player of the table.";
  setStatus(`error[${error.code}]: ${error.message}`, "illegal");
}

// -- input -----------------------------------------------------------------------------------

$("#file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (!file) return;
  page.name = file.name;
  page.selected = null;
  $("#transcript").value = await file.text();
  changed();
  await check(false);
});

$("#transcript").addEventListener("input", changed);
$("#check").addEventListener("click", () => { changed(); check(false); });
$("#reading").addEventListener("change", () => { changed(); check(false); });
$("#viewpoint").addEventListener("change", () => { changed(); check(false); });

$("#dispute").addEventListener("click", () => {  // '??': the move is disputed, and explained, once added
  const box = $("#next-line");
  const line = box.value.trimEnd();
  if (line && !/\?\?$/.test(line)) box.value = `${line} ??`;
  box.focus();
});

$("#build").addEventListener("submit", async (event) => {
  event.preventDefault();
  const line = $("#next-line").value.trim();
  if (!line) return;
  if (!page.token) {
    const area = $("#transcript");
    area.value = area.value.replace(/\s*$/, "\n") + line + "\n";
    $("#next-line").value = "";
    changed();
    await check(true);
    return;
  }
  try {  // stored by the service before anything judges it; refused if the table moved on meanwhile
    await api(`/api/tables/${page.token}/lines`, { line, revision: page.revision });
    $("#next-line").value = "";
    dismiss("refused");
    await loadTable(true);
  } catch (error) {  // the line stays in its box
    refused("Your line was not added", error);
    if (error.code === "conflict") await loadTable(false);
  }
});

$("#new-table").addEventListener("click", async () => {
  try {
    const body = { transcript: $("#transcript").value, name: page.name.replace(/\.txt$/, "") || "table" };
    if ($("#reading").value) body.rules = $("#reading").value;
    const table = await api("/api/tables", body);
    location.href = table.host.url;
  } catch (error) {
    setStatus(describe(error), "illegal");
  }
});

NARROW.addEventListener("change", () => {
  const selected = document.querySelector("#lines li.selected");
  if (!$("#detail").hidden) placeDetail(selected);
});

api("/api/games").then((data) => {
  for (const game of data.games) page.games[game.game] = game;
}).catch(() => {});

if (page.token) {
  document.body.classList.add("table-mode");
  loadTable(false);
  setInterval(follow, FOLLOW_MS);
  window.addEventListener("online", follow);
  window.addEventListener("offline", () => lostConnection({ code: "offline", message: "connection lost: retrying…" }));
}
