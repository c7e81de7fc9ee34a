// The club's page: lays out what the bot sends (bot/core/club/view.py) and nothing more.
// Every number and word comes from the server, ranked and written there; names go in as
// text, each isolated in a <bdi>, never as markup. A member's page is a view of the same
// page (#member=ID), its data asked for when it is shown.
"use strict";

const COLOURS = ["#2a6df4", "#e4572e", "#17a398", "#f3a712", "#8e44ad", "#c0392b",
                 "#2e86de", "#27ae60", "#d35400", "#7f8c8d"];
const SVG = "http://www.w3.org/2000/svg";
const token = location.pathname.split("/")[2] || "";
const tv = new URLSearchParams(location.search).has("tv");
const TV_TURN_MS = 30000;  // a TV shows each of the club's games in turn, this long each
const $ = (id) => document.getElementById(id);
let words = {};
let club = null;  // the club's data as last sent
let chosen = null;  // the key of the game shown
let shownMember = null;  // the member's data shown, or null: the club
let charts = [];  // [figure, chart] drawn: again when the screen changes size

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (cls) node.className = cls;
  return node;
}

function svg(tag, attributes, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes || {})) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = String(text);
  return node;
}

function signClass(text) {
  const t = String(text).trim();
  return t.startsWith("-") ? "down" : t.startsWith("+") ? "up" : "";
}

function who(entry, link) {
  // a member's name, isolated; a guest's with the table that knows them
  const node = el(link ? "a" : "span", null, "who");
  if (link) node.href = `#member=${encodeURIComponent(entry.member)}`;
  node.append(el("bdi", entry.name));
  if (entry.where) {
    const where = el("small");
    where.append(el("bdi", entry.where));
    node.append(" ", where);
  }
  return node;
}

function table(headings, rows, placed, signed = true) {
  const node = el("table");
  const head = el("tr");
  for (const heading of headings) {
    const th = el("th", heading);
    th.scope = "col";
    head.append(th);
  }
  node.append(head);
  for (const row of rows) {
    const line = el("tr");
    if (placed) line.append(el("td", row.place, "place"));
    const name = el("td", null, "name");
    name.append(who(row, true));
    line.append(name);
    for (const cell of row.cells) {
      line.append(el("td", cell, signed ? "num " + signClass(cell) : "num"));
    }
    node.append(line);
  }
  return node;
}

function scrolling(node) {
  const box = el("div", null, "scroll");
  box.append(node);
  return box;
}

// --- the chart ---------------------------------------------------------------------------

function drawChart(figure, chart) {
  figure.replaceChildren();
  figure.hidden = !chart;
  if (!chart) return;
  const legend = el("div", null, "legend");
  chart.lines.forEach((line, i) => {
    const item = el("span");
    item.style.setProperty("--swatch", COLOURS[i % COLOURS.length]);
    item.append(el("bdi", line.name), " ", el("span", line.rating, "num"));
    legend.append(item);
  });
  const caption = el("figcaption", `${words.chart} · ${chart.games}`);
  figure.append(caption, legend);
  // drawn at the size it is shown, so that its type is as large as the page's own
  const width = Math.max(200, Math.round(figure.clientWidth || 600));
  const font = tv ? 32 : 13;
  const height = tv
    ? Math.max(8 * font, figure.clientHeight - caption.offsetHeight - legend.offsetHeight - 8)
    : Math.round(Math.max(200, Math.min(width * 0.62, 340)));
  const ticks = chart.ticks;
  const low = ticks[0].value, high = ticks[ticks.length - 1].value;
  const longest = Math.max(...ticks.map((t) => t.label.length));
  const left = Math.ceil(font * 0.62 * longest) + font;
  const right = Math.ceil(font * 0.8), top = Math.ceil(font * 0.8), bottom = 2 * font;
  const count = chart.count;
  const x = (i) => count > 1 ? left + (width - left - right) * ((i - 1) / (count - 1))
                             : left + (width - left - right) / 2;
  const y = (v) => top + (height - top - bottom) * ((high - v) / (high - low || 1));
  const drawing = svg("svg", {viewBox: `0 0 ${width} ${height}`, role: "img",
                              "aria-label": `${words.chart} · ${chart.games}`});
  drawing.style.fontSize = `${font}px`;
  for (const tick of ticks) {
    drawing.append(svg("line", {class: tick.value === 0 ? "zero" : "grid", x1: left,
                                x2: width - right, y1: y(tick.value), y2: y(tick.value)}));
    drawing.append(svg("text", {x: left - font * 0.4, y: y(tick.value) + font / 3,
                                "text-anchor": "end"}, tick.label));
  }
  drawing.append(svg("line", {class: "axis", x1: left, x2: left, y1: top,
                              y2: height - bottom}));
  drawing.append(svg("line", {class: "axis", x1: left, x2: width - right,
                              y1: height - bottom, y2: height - bottom}));
  const under = height - bottom + font * 1.3;
  if (chart.first === chart.last) {
    drawing.append(svg("text", {x: (left + width - right) / 2, y: under,
                                "text-anchor": "middle"}, chart.first));
  } else {
    drawing.append(svg("text", {x: left, y: under, "text-anchor": "start"}, chart.first));
    drawing.append(svg("text", {x: width - right, y: under, "text-anchor": "end"},
                       chart.last));
  }
  chart.lines.forEach((line, i) => {
    const colour = COLOURS[i % COLOURS.length];
    const points = line.points.map(([i_, v]) => `${x(i_).toFixed(1)},${y(v).toFixed(1)}`);
    drawing.append(svg("polyline", {fill: "none", stroke: colour,
                                    "stroke-width": tv ? 5 : 2.5,
                                    "stroke-linejoin": "round", points: points.join(" ")}));
    const [lastX, lastV] = line.points[line.points.length - 1];
    drawing.append(svg("circle", {cx: x(lastX), cy: y(lastV), r: tv ? 8 : 4,
                                  fill: colour}));
  });
  figure.insertBefore(drawing, legend);
  charts.push([figure, chart]);
}

function redraw() {
  const drawn = charts;
  charts = [];
  for (const [figure, chart] of drawn) if (figure.isConnected) drawChart(figure, chart);
}

// --- the club ----------------------------------------------------------------------------

function renderGames() {
  const nav = $("games");
  nav.replaceChildren();
  const games = club.games;
  nav.hidden = games.length < 2 || shownMember !== null || tv;
  nav.setAttribute("aria-label", words.games);
  for (const game of games) {
    const button = el("button", game.title);
    button.type = "button";
    button.setAttribute("aria-pressed", String(game.key === chosen));
    button.addEventListener("click", () => { chosen = game.key; renderClub(); });
    nav.append(button);
  }
}

function renderClub() {
  charts = [];
  const games = club.games;
  if (!games.some((g) => g.key === chosen)) chosen = games.length ? games[0].key : null;
  const game = games.find((g) => g.key === chosen);
  renderGames();
  $("none").hidden = Boolean(game);
  $("none").textContent = words.none;
  for (const id of ["standings-part", "ratings-part", "records-part"]) $(id).hidden = !game;
  $("standings-title").textContent = game ? `${words.standings}: ${game.title}` : "";
  const standings = $("standings");
  standings.replaceChildren();
  if (game) {
    for (const board of tv ? game.standings.slice(0, 1) : game.standings) {
      standings.append(el("h3", board.label),
                       board.rows.length ? scrolling(table(board.headings, board.rows, true))
                                         : el("p", board.note, "note"));
    }
    $("ratings-title").textContent = `${words.ratings}: ${game.title}`;
    const ratings = table(game.ratings.headings, game.ratings.rows, true, false);
    ratings.id = "ratings";
    $("ratings").replaceWith(ratings);
    $("rating-note").textContent = words.rating_note;
    $("provisional-note").textContent = words.provisional;
    drawChart($("chart"), game.chart);
    const records = $("records");
    records.replaceChildren();
    $("records-title").textContent = words.records;
    for (const record of game.records) {
      const said = el("dd");
      said.append(who(record, true), " · ", el("span", record.text));
      records.append(el("dt", record.label), said);
    }
  } else {
    $("chart").replaceChildren();
  }
  renderTournaments();
  $("tables-title").textContent = words.tables;
  const list = $("tables");
  list.replaceChildren();
  for (const table_ of club.club.tables) {
    const item = el("li");
    item.append(el("bdi", table_.name), " · ", el("span", table_.platform));
    list.append(item);
  }
  if (tv) fitStandings();
}

function renderTournaments() {
  // each tournament under way: its standings, then its round's tables and their seats
  const part = $("tournaments-part");
  part.replaceChildren();
  const made = club.tournaments || [];
  part.hidden = made.length === 0;
  for (const t of made) {
    part.append(el("h2", `${words.tournament}: ${t.name}`), el("p", t.summary, "note"));
    if (t.standings.rows.length) {
      part.append(scrolling(table(t.standings.headings, t.standings.rows, true)));
    }
    if (!t.round) continue;
    part.append(el("h3", t.round.label));
    const list = el("ul", null, "tournament-tables");
    for (const table_ of t.round.tables) {
      const item = el("li");
      const head = el("strong");
      head.append(el("bdi", table_.label));
      item.append(head);
      if (table_.done) item.append(" · ", el("span", words.finished, "up"));
      const seats = el("div", null, "seats");
      table_.seats.forEach((seat, i) => {
        if (i) seats.append(", ");
        seats.append(el("bdi", seat));
      });
      item.append(seats);
      list.append(item);
    }
    part.append(list);
  }
}

function fitStandings() {
  // a TV shows the rows that fit its screen: the top of the table
  const part = $("standings-part");
  const rows = part.querySelector("table");
  while (rows && rows.rows.length > 2 && part.scrollHeight > part.clientHeight + 1) {
    rows.deleteRow(-1);
  }
}

// --- a member's page ---------------------------------------------------------------------

function memberWanted() {
  const found = /^#member=([^&]+)$/.exec(location.hash);
  return found ? decodeURIComponent(found[1]) : null;
}

function renderMember(data) {
  charts = [];
  const member = data.member;
  $("back").textContent = `← ${words.back}`;
  const heading = $("member-name");
  heading.replaceChildren();
  const games = $("member-games");
  games.replaceChildren();
  if (!member) {
    $("member-summary").textContent = words.unknown;
    return;
  }
  heading.append(who(member, false));
  document.title = `${member.name} · ${club ? club.club.name : ""}`;
  $("member-summary").textContent = member.summary;
  for (const game of member.games) {
    const part = el("section", null, "game");
    part.append(el("h3", game.title));
    const facts = el("dl", null, "facts");
    for (const fact of game.facts) {
      const item = el("div");
      item.append(el("dt", fact.label), el("dd", fact.value, "num " + signClass(fact.value)));
      facts.append(item);
    }
    part.append(facts);
    part.append(el("p", `${words.rating}: ${game.rating ? game.rating.said : words.unrated}`));
    if (game.best) part.append(el("p", `${words.best}: ${game.best}`));
    const figure = el("figure", null, "chart");
    part.append(figure);
    if (game.places.length) {
      part.append(el("h4", words.places));
      const places = el("table", null, "places");
      for (const place of game.places) {
        const row = el("tr");
        const th = el("th", place.place);
        th.scope = "row";
        const bar = el("div", null, "bar");
        bar.style.width = `${Math.round(place.share * 100)}%`;
        const cell = el("td", null, "share");
        cell.append(bar);
        row.append(th, el("td", place.count, "num"), cell);
        places.append(row);
      }
      part.append(places);
    }
    if (game.opponents.rows.length) {
      part.append(el("h4", words.h2h), el("p", words.h2h_note, "note"));
      part.append(scrolling(table(game.opponents.headings, game.opponents.rows, false)));
    }
    games.append(part);
    drawChart(figure, game.chart);
  }
}

async function showMember(id) {
  try {
    const answer = await fetch(`/c/${token}/data?member=${encodeURIComponent(id)}`,
                               {cache: "no-store"});
    if (answer.status === 404) { location.reload(); return; }
    if (!answer.ok) return;
    const data = await answer.json();
    if (memberWanted() !== id) return;  // another was asked for meanwhile
    words = data.words || words;
    shownMember = data;
    $("club").hidden = true;
    $("member").hidden = false;
    $("games").hidden = true;
    renderMember(data);
  } catch (e) { /* away: the page keeps what it shows */ }
}

function route() {
  const id = memberWanted();
  if (id !== null) {
    const fresh = !shownMember || !shownMember.member || shownMember.member.member !== id;
    showMember(id).then(() => { if (fresh) scrollTo(0, 0); });
    return;
  }
  shownMember = null;
  $("member").hidden = true;
  $("club").hidden = false;
  if (club) {
    document.title = club.club.name;
    renderClub();
  }
}

// --- the feed ----------------------------------------------------------------------------

function render(data) {
  club = data;
  words = data.words || {};
  document.documentElement.lang = data.language || "en";
  $("title").textContent = "";
  $("title").append(el("bdi", data.club.name));
  $("summary").textContent = data.club.summary;
  if (memberWanted() === null) {
    document.title = data.club.name;
    renderClub();
  } else {
    showMember(memberWanted());  // a game ended: the member's figures too
  }
}

function status(text, offline) {
  const state = $("state");
  state.textContent = text;
  state.classList.toggle("offline", Boolean(offline));
}

function listen() {
  const feed = new EventSource(`/c/${token}/events`);
  feed.addEventListener("club", (event) => {
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
  // the feed was refused: if the link opens nothing now, show what the server says of it
  try {
    const answer = await fetch(`/c/${token}/data`, {cache: "no-store"});
    if (answer.status === 404) { location.reload(); return; }
  } catch (e) { /* still away: try again */ }
  listen();
}

document.addEventListener("DOMContentLoaded", () => {
  if (tv) {
    document.body.classList.add("tv");
    setInterval(() => {
      if (!club || club.games.length < 2 || shownMember) return;
      const at = club.games.findIndex((g) => g.key === chosen);
      chosen = club.games[(at + 1) % club.games.length].key;
      renderClub();
    }, TV_TURN_MS);
  }
  addEventListener("hashchange", route);
  let resizing = 0;
  addEventListener("resize", () => {
    cancelAnimationFrame(resizing);
    resizing = requestAnimationFrame(() => {
      if (tv && club && !shownMember) renderClub(); else redraw();
    });
  });
  listen();
});
