// The scoreboard: lays out what the bot sends (bot/core/scoreboard.py) and nothing more.
// Every number and word comes from the server; names go in as text, never as markup.
"use strict";

const COLOURS = ["#2a6df4", "#e4572e", "#17a398", "#f3a712", "#8e44ad", "#c0392b",
                 "#2e86de", "#27ae60", "#d35400", "#7f8c8d"];
const SVG = "http://www.w3.org/2000/svg";
const token = location.pathname.split("/")[2] || "";
const tv = new URLSearchParams(location.search).has("tv");
const $ = (id) => document.getElementById(id);
let words = {};
let showingMore = false;

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (cls) node.className = cls;
  return node;
}

function signClass(text) {
  const t = String(text).trim();
  return t.startsWith("-") ? "down" : t.startsWith("+") ? "up" : "";
}

function renderStandings(game) {
  const table = $("standings");
  table.replaceChildren();
  const head = el("tr");
  const results = game.columns.some((c) => c.result !== undefined);
  head.append(el("th", words.standings), el("th", words.total));
  if (results) head.append(el("th", words.result));
  const currencies = Object.keys(game.money || {});
  for (const c of currencies) head.append(el("th", c || "¤"));
  table.append(head);
  // in the game's own order of places (the server ranks; ties share a place)
  const order = game.columns.map((c, i) => i)
    .sort((a, b) => (game.columns[a].place || 0) - (game.columns[b].place || 0)
                    || game.columns[b].value - game.columns[a].value);
  for (const i of order) {
    const column = game.columns[i];
    const row = el("tr");
    const name = el("td", column.place ? `${column.place}. ${column.label}` : column.label, "name");
    name.title = column.legend;
    row.append(name, el("td", column.total, "total " + signClass(column.total)));
    if (results) row.append(el("td", column.result || "", signClass(column.result || "")));
    for (const c of currencies) {
      const amount = (game.money[c] || {})[column.label];
      row.append(el("td", amount === undefined ? "" : amount));
    }
    table.append(row);
  }
}

let charted = null;  // the game the chart shows: drawn again when the screen changes size

function renderChart(game) {
  charted = game;
  const figure = $("chart");
  figure.replaceChildren();
  const lines = game.running || [];
  const xs = game.numbers || [];
  if (xs.length < 2) return;
  // drawn at the size it is shown, so that its type is as large as the page's own
  const width = Math.max(240, Math.round(figure.clientWidth || 600));
  const height = Math.round(tv ? Math.max(240, Math.min(width * 0.6, innerHeight * 0.6))
                                : Math.max(180, Math.min(width * 0.6, 320)));
  const font = tv ? 24 : 12;
  let low = 0, high = 0;
  for (const line of lines) for (const v of line) { low = Math.min(low, v); high = Math.max(high, v); }
  if (game.goal) { low = Math.min(low, game.goal.value); high = Math.max(high, game.goal.value); }
  if (high === low) high = low + 1;
  const pad = Math.ceil(font * 0.65 * Math.max(String(low).length, String(high).length)) + 8;
  const last = xs[xs.length - 1] || 1;
  const x = (i) => pad + (width - pad - font) * (i / (xs.length - 1));
  const y = (v) => height - 2 * font - (height - 3 * font) * ((v - low) / (high - low));
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.style.fontSize = `${font}px`;
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", words.chart);
  const zero = document.createElementNS(SVG, "line");
  zero.setAttribute("class", "axis");
  zero.setAttribute("x1", pad); zero.setAttribute("x2", width - font);
  zero.setAttribute("y1", y(0)); zero.setAttribute("y2", y(0));
  svg.append(zero);
  if (game.goal) {
    const goal = document.createElementNS(SVG, "line");
    goal.setAttribute("class", "goal");
    goal.setAttribute("x1", pad); goal.setAttribute("x2", width - font);
    goal.setAttribute("y1", y(game.goal.value)); goal.setAttribute("y2", y(game.goal.value));
    svg.append(goal);
  }
  for (const [v, anchor] of [[high, "start"], [low, "start"]]) {
    const label = document.createElementNS(SVG, "text");
    label.setAttribute("x", 2); label.setAttribute("y", y(v) + font / 3);
    label.textContent = String(v);
    svg.append(label);
  }
  const end = document.createElementNS(SVG, "text");
  end.setAttribute("x", width - font); end.setAttribute("y", height - font / 3);
  end.setAttribute("text-anchor", "end");
  end.textContent = `${game.hand_word} ${last}`;
  svg.append(end);
  lines.forEach((line, i) => {
    const path = document.createElementNS(SVG, "polyline");
    path.setAttribute("fill", "none");
    path.setAttribute("stroke", COLOURS[i % COLOURS.length]);
    path.setAttribute("stroke-width", tv ? 4 : 3);
    path.setAttribute("points", line.map((v, j) => `${x(j).toFixed(1)},${y(v).toFixed(1)}`).join(" "));
    svg.append(path);
  });
  const legend = el("div", null, "legend");
  game.columns.forEach((column, i) => {
    const item = el("span", `${column.legend} ${column.total}`);
    item.style.setProperty("--swatch", COLOURS[i % COLOURS.length]);
    legend.append(item);
  });
  figure.append(svg, legend);
}

function renderHands(game) {
  $("hands-title").textContent = words.hands;
  const table = $("hands");
  table.replaceChildren();
  const head = el("tr");
  head.append(el("th", "#"));
  for (const column of game.columns) head.append(el("th", column.label));
  head.append(el("th", ""));
  table.append(head);
  for (const hand of [...game.hands].reverse()) {
    const row = el("tr", null, hand.state);
    row.title = hand.summary;
    row.append(el("td", hand.no));
    for (const cell of hand.cells) row.append(el("td", cell, signClass(cell)));
    row.append(el("td", hand.state ? words[hand.state] : "", "mark"));
    table.append(row);
  }
}

function renderMore(more) {
  $("finished-title").textContent = words.finished;
  $("ledger-title").textContent = words.ledger;
  $("season-title").textContent = words.season;
  const list = $("finished");
  list.replaceChildren();
  $("no-finished").textContent = words.none;
  $("no-finished").hidden = more.finished.length > 0;  // a sentence, not a list's item
  list.hidden = !more.finished.length;
  for (const past of more.finished) {
    const item = el("li");
    item.append(el("strong", `${past.number}. ${past.title}`), el("br"),
                el("span", [past.when, past.count].filter(Boolean).join(" · ")), el("br"),
                el("span", past.totals.map(([name, total]) => `${name} ${total}`).join(", ")));
    list.append(item);
  }
  $("ledger").textContent = more.ledger;
  $("season").textContent = more.season;
}

function render(data) {
  words = data.words || {};
  document.documentElement.lang = data.language || "en";
  const game = data.game;
  $("switch").textContent = showingMore ? words.back : words.more;
  if (!game) {
    $("title").textContent = data.note || "";
    $("heading").textContent = "";
    for (const id of ["standings", "hands", "chart"]) $(id).replaceChildren();
    charted = null;
  } else {
    $("title").textContent = game.title;
    document.title = game.title;
    $("heading").textContent = game.heading;
    renderStandings(game);
    renderChart(game);
    renderHands(game);
  }
  renderMore(data.more);
}

function status(text, offline) {
  const state = $("state");
  state.textContent = text;
  state.classList.toggle("offline", Boolean(offline));
}

function listen() {
  const feed = new EventSource(`/s/${token}/events`);
  feed.addEventListener("table", (event) => {
    render(JSON.parse(event.data));
    status(words.live || "", false);
  });
  feed.addEventListener("gone", () => {
    feed.close();
    location.reload();  // the link opens nothing now: the server says so
  });
  feed.onerror = () => {
    status(words.offline || "…", true);
    if (feed.readyState === EventSource.CLOSED) setTimeout(again, 3000);
  };
}

async function again() {
  // the feed was refused: if the link opens nothing now (turned off or replaced while the
  // page was away), show what the server says of it rather than the last scores for ever
  try {
    const answer = await fetch(`/s/${token}/data`, {cache: "no-store"});
    if (answer.status === 404) { location.reload(); return; }
  } catch (e) { /* still away: try again */ }
  listen();
}

document.addEventListener("DOMContentLoaded", () => {
  if (tv) document.body.classList.add("tv");
  $("switch").addEventListener("click", () => {
    showingMore = !showingMore;
    $("game").hidden = showingMore;
    $("more").hidden = !showingMore;
    $("switch").textContent = showingMore ? words.back : words.more;
    if (!showingMore && charted) renderChart(charted);  // hidden, it had no size
  });
  let resizing = 0;
  addEventListener("resize", () => {
    cancelAnimationFrame(resizing);
    resizing = requestAnimationFrame(() => { if (charted) renderChart(charted); });
  });
  listen();
});
