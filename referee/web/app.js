// The table's dispute page: plain JavaScript over the service's JSON API
// (docs/service.md). Everything a user wrote is shown with textContent, never
// as HTML; the board picture is shown as an image.
"use strict";

const $ = (selector) => document.querySelector(selector);
const page = { name: "transcript.txt", report: null, games: {}, selected: null, board: null };

async function api(path, body) {
  const response = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  let data;
  try { data = await response.json(); } catch (e) { data = {}; }
  if (!response.ok) throw (data.error || { code: "http", message: `${response.status} ${response.statusText}` });
  return data;
}

function request(extra) {
  const body = { transcript: $("#transcript").value, name: page.name, ...extra };
  if ($("#reading").value) body.rules = $("#reading").value;
  if ($("#viewpoint").value) body.as = $("#viewpoint").value;
  return body;
}

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

// -- checking -------------------------------------------------------------------------------

async function check(selectLast) {
  const status = $("#status");
  status.textContent = "Checking…";
  status.className = "";
  $("#check").disabled = true;
  try {
    const report = await api("/api/check", request());
    page.report = report;
    showLines(report);
    const game = page.games[report.game];
    fillSelect($("#reading"), game ? game.readings.map((r) => [r.reading, `${r.reading} (${r.source})`]) : [],
               $("#reading").value);
    fillSelect($("#viewpoint"), report.players.map((p) => [p, p]), $("#viewpoint").value);
    status.textContent = summary(report);
    status.className = report.legal ? "legal" : "illegal";
    const target = selectLast ? report.marks[report.marks.length - 1]
      : report.marks.find((m) => m.number === page.selected);
    if (target) await select(target.number);
    else $("#detail").hidden = true;
  } catch (error) {
    page.report = null;
    showLines(null, error);
    status.textContent = `${where(error)}error[${error.code}]: ${error.message}`;
    status.className = "illegal";
    $("#detail").hidden = true;
  } finally {
    $("#check").disabled = false;
  }
}

function summary(report) {
  const illegal = new Set(report.problems.map((p) => `${p.line}:${p.number}`)).size;
  const parts = [`${report.moves_checked} moves checked (rules: ${report.rules}${report.viewpoint ? `, as ${report.viewpoint}` : ""})`];
  parts.push(illegal ? `${illegal} illegal` : "every move is legal");
  if (report.disputes.length) parts.push(`${report.disputes.length} disputed`);
  if (report.outcome) parts.push(report.outcome);
  return parts.join("; ") + ".";
}

function showLines(report, error) {
  const list = $("#lines");
  list.replaceChildren();
  const text = $("#transcript").value.replace(/\r\n?/g, "\n").split("\n");
  const marks = new Map();
  const problems = new Map();
  if (report) {
    for (const mark of report.marks) {
      if (!marks.has(mark.line)) marks.set(mark.line, []);
      marks.get(mark.line).push(mark);
    }
    for (const problem of report.problems) {
      if (!problems.has(problem.line)) problems.set(problem.line, []);
      problems.get(problem.line).push(problem);
    }
  }
  text.forEach((line, index) => {
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
      item.addEventListener("click", () => select(first.number));
      item.addEventListener("keydown", (event) => { if (event.key === "Enter") select(first.number); });
    } else if (broken.length) {
      item.classList.add("illegal");
    }
    for (const problem of broken) {
      const why = problem.breaches.map((b) => `${b.rule}: ${b.message}`).join("; ");
      const what = problem.number === null ? `(${problem.text}) ` : "";
      item.append(element("div", `${what}${why}`, "why"));
    }
    if (error && error.line === number) {
      item.classList.add("illegal", "error");
      item.append(element("div", `column ${error.column}: ${error.message}`, "why"));
    }
    list.append(item);
  });
}

// -- one move --------------------------------------------------------------------------------

async function select(number) {
  page.selected = number;
  for (const item of document.querySelectorAll("#lines li")) {
    const moves = (item.dataset.moves || "").split(" ");
    item.classList.toggle("selected", moves.includes(String(number)));
  }
  const detail = $("#detail");
  detail.hidden = false;
  $("#detail-title").textContent = `Move ${number}…`;
  try {
    const [verdict, board] = await Promise.all([
      api("/api/explain", request({ move: number })),
      api("/api/board", request({ after: number })).catch((error) => ({ error })),
    ]);
    if (page.selected !== number) return;
    showVerdict(verdict);
    showBoard(board, number);
  } catch (error) {
    $("#detail-title").textContent = `Move ${number}`;
    $("#verdict").textContent = `${where(error)}error[${error.code}]: ${error.message}`;
    $("#verdict").className = "illegal";
  }
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
  $("#alternatives-title").textContent = alternatives.length
    ? `What may be done instead (${v.alternatives_for})` : `Nothing may be done instead (${v.alternatives_for})`;
  $("#alternatives").replaceChildren(...alternatives.map((a) => element("li", a)));
  if (v.alternatives_complete === false) {
    const count = v.alternatives_total === null ? "a summary" : `${v.alternatives_total} legal moves in all`;
    $("#alternatives").append(element("li", `(${count})`, "more"));
  }
}

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
  figure.hidden = false;
}

// -- input -----------------------------------------------------------------------------------

$("#file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (!file) return;
  page.name = file.name;
  page.selected = null;
  $("#transcript").value = await file.text();
  await check(false);
});

$("#check").addEventListener("click", () => check(false));
$("#reading").addEventListener("change", () => check(false));
$("#viewpoint").addEventListener("change", () => check(false));

$("#build").addEventListener("submit", async (event) => {
  event.preventDefault();
  const line = $("#next-line").value.trim();
  if (!line) return;
  const area = $("#transcript");
  area.value = area.value.replace(/\s*$/, "\n") + line + "\n";
  $("#next-line").value = "";
  await check(true);
});

api("/api/games").then((data) => {
  for (const game of data.games) page.games[game.game] = game;
}).catch(() => {});
