// Playwright Test configuration of the TodoMVC comparison
// (scripts/todomvc-playwright.sh copies this directory next to its pinned
// @playwright/test and runs it there). Debian's Chromium, headless; the
// served package's URL comes from TODOMVC_BASE_URL.
const { defineConfig } = require('@playwright/test');

module.exports = defineConfig({
  testDir: __dirname,
  timeout: 120000, // as the flows' `context timeout=120000`
  expect: { timeout: 5000 }, // as the flows' `wait ... 5000`
  retries: 0,
  fullyParallel: true,
  reporter: [['json'], ['dot']],
  use: {
    baseURL: process.env.TODOMVC_BASE_URL,
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath: process.env.TODOMVC_CHROMIUM || '/usr/bin/chromium' },
  },
});
