// SPDX-License-Identifier: GPL-2.0
// The report suite's checks in a real browser: one headless Chromium
// (Debian's, driven by playwright-core) opens jrec's SVG flame graph and the
// speedscope app (the speedscope npm package's built files, served from
// 127.0.0.1) with jrec's speedscope file. Prints one JSON line of findings;
// the suite asserts on them.
//
//   node browser-checks.js NODE_MODULES CHROMIUM PROFILE_DIR SPEEDSCOPE_JSON \
//	[SVG:SEARCH | script=FILE]...
//
// For each SVG, SEARCH is searched for; the frames whose name contains it
// should be the ones highlighted. Each script=FILE (perf script's text, from
// perf script or jrec script) is opened by the same speedscope app, whose
// importer tells the format apart by itself; its findings, in order, under
// "scripts", with the rows of its sandwich view (each function's total and
// self time, its name).
'use strict';
const path = require('path');
const http = require('http');
const fs = require('fs');

const [modules, chromiumPath, profileDir, speedscopeFile, ...rest] = process.argv.slice(2);
const svgs = rest.filter((a) => !a.startsWith('script='));
const scripts = rest.filter((a) => a.startsWith('script=')).map((a) => a.substring(7));
// what the server gives as /profile.json
let served = speedscopeFile;
const { chromium } = require(path.join(modules, 'playwright-core'));
const appDir = path.join(modules, 'speedscope', 'dist', 'release');

const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css',
		'.json': 'application/json', '.wasm': 'application/wasm', '.png': 'image/png',
		'.woff2': 'font/woff2', '.ico': 'image/x-icon' };

function serve() {
	const server = http.createServer((req, res) => {
		const url = decodeURIComponent(req.url.split('?')[0].split('#')[0]);
		const file = url === '/profile.json' ? served
			: path.join(appDir, path.normalize(url === '/' ? '/index.html' : url));
		if (url !== '/profile.json' && !file.startsWith(appDir)) {
			res.writeHead(403);
			return res.end();
		}
		fs.readFile(file, (err, data) => {
			if (err) {
				res.writeHead(404);
				return res.end();
			}
			res.writeHead(200, { 'Content-Type': types[path.extname(file)] || 'application/octet-stream',
					     'Access-Control-Allow-Origin': '*' });
			res.end(data);
		});
	});
	return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function checkSvg(ctx, svgFile, searchName) {
	const page = await ctx.newPage();
	const errors = [];
	page.on('pageerror', (e) => errors.push(String(e)));
	await page.goto('file://' + path.resolve(svgFile));
	await page.waitForFunction(() => typeof window.flameSearch === 'function');
	const r = await page.evaluate((name) => {
		const r = {};
		const frames = Array.from(document.querySelectorAll('g.f'));
		const fname = (g) => g.querySelector('title').textContent.replace(/ \([0-9]+ samples, [0-9.]+%\)$/, '');
		r.frames = frames.length;
		r.drawn = frames.filter((g) => g.querySelector('rect').getBBox().width > 0).length;
		r.labelled = frames.filter((g) => g.querySelector('text').textContent.length > 0).length;
		r.tooltip = frames.length ? frames[0].querySelector('title').textContent : '';
		const hits = window.flameSearch(name);
		const fill = (g) => g.querySelector('rect').getAttribute('fill');
		const named = frames.filter((g) => fname(g).includes(name));
		r.searched = name;
		r.hits = hits;
		r.named = named.length;
		r.namedHighlighted = named.filter((g) => fill(g) === 'rgb(230,0,230)').length;
		r.namedJit = named.filter((g) => g.classList.contains('jit')).length;
		r.namedClasses = Array.from(new Set(named.map((g) => g.getAttribute('class'))));
		r.othersHighlighted = frames.filter((g) => !fname(g).includes(name) &&
			fill(g) === 'rgb(230,0,230)').length;
		r.matched = document.getElementById('matched').textContent;
		window.flameSearch(null);
		r.afterReset = frames.filter((g) => fill(g) === 'rgb(230,0,230)').length;
		// click to zoom: the frame fills the width, its ancestors too
		if (named.length) {
			named[0].dispatchEvent(new MouseEvent('mouseover'));
			r.details = document.getElementById('details').textContent;
			named[0].dispatchEvent(new MouseEvent('click'));
			r.zoomedWidth = parseFloat(named[0].querySelector('rect').getAttribute('width'));
			r.hiddenAfterZoom = frames.filter((g) => g.style.display === 'none').length;
			window.flameUnzoom();
			r.widthAfterUnzoom = parseFloat(named[0].querySelector('rect').getAttribute('width'));
		}
		r.kinds = {};
		frames.forEach((g) => g.classList.forEach((c) => { r.kinds[c] = (r.kinds[c] || 0) + 1; }));
		return r;
	}, searchName);
	r.file = svgFile;
	r.errors = errors;
	await page.close();
	return r;
}

/*
 * The speedscope app on @file (its own format or any its importer knows): the
 * page's title, the text of its sandwich view (every function by name) and
 * the names in the view's table, the errors the page reported.
 */
async function openInSpeedscope(ctx, file) {
	served = file;
	const server = await serve();
	const base = 'http://127.0.0.1:' + server.address().port;
	const page = await ctx.newPage();
	const errors = [];
	page.on('pageerror', (e) => errors.push(String(e)));
	page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
	page.on('dialog', (d) => { errors.push('dialog: ' + d.message()); d.dismiss(); });
	await page.goto(base + '/index.html#profileURL=' + encodeURIComponent(base + '/profile.json'));
	const r = { file };
	try {
		await page.waitForFunction(() => document.title.includes(' - speedscope') &&
			document.querySelector('canvas') !== null, null, { timeout: 20000 });
	} catch (e) {
		r.timeout = String(e).split('\n')[0];
	}
	r.title = await page.title();
	// the sandwich view lists every function by name, in the page's text
	await page.keyboard.press('3');
	await page.waitForTimeout(500);
	r.text = await page.evaluate(() => document.body.innerText);
	// its table's rows: the cells' text (total, self), the name last
	r.rows = await page.evaluate(() => Array.from(document.querySelectorAll('tr'))
		.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.innerText.trim()))
		.filter((cells) => cells.length > 0));
	r.names = r.rows.map((cells) => cells[cells.length - 1]);
	r.errors = errors;
	await page.close();
	server.close();
	return r;
}

async function checkSpeedscope(ctx, out) {
	out.speedscope = await openInSpeedscope(ctx, speedscopeFile);
	out.scripts = [];
	for (const f of scripts)
		out.scripts.push(await openInSpeedscope(ctx, f));
}

(async () => {
	const out = {};
	const ctx = await chromium.launchPersistentContext(profileDir, {
		executablePath: chromiumPath,
		headless: true,
		args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
		       '--disable-background-networking', '--disable-component-update',
		       '--disable-sync'],
	});
	try {
		out.svg = [];
		for (const arg of svgs) {
			const at = arg.lastIndexOf(':');
			out.svg.push(await checkSvg(ctx, arg.substring(0, at), arg.substring(at + 1)));
		}
		await checkSpeedscope(ctx, out);
	} finally {
		await ctx.close();
	}
	console.log(JSON.stringify(out));
})().catch((e) => {
	console.log(JSON.stringify({ fatal: String(e) }));
	process.exit(1);
});
