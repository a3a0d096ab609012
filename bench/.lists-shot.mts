import { chromium } from 'playwright-core';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const p = await b.newPage({ viewport: { width: 1400, height: 900 } });
p.on('console', (m) => console.log('console', m.type(), m.text()));
p.on('pageerror', (e) => console.log('pageerror', e.message));
await p.goto(process.argv[2]!);
await p.waitForTimeout(Number(process.argv[4] ?? 2500));
await p.screenshot({ path: process.argv[3]!, fullPage: true });
await b.close();
