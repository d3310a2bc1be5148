// Playwright Test configuration of the component corpus comparison
// (scripts/components-playwright.sh copies this directory next to its pinned
// @playwright/test and runs it there). Debian's Chromium, headless; the
// served corpus's URL comes from COMPONENTS_BASE_URL.
const { defineConfig } = require('@playwright/test');

module.exports = defineConfig({
  testDir: __dirname,
  timeout: 60000, // as the flows' `context timeout=60000`
  expect: { timeout: 5000 }, // as the flows' `wait ... 5000`
  retries: 0,
  fullyParallel: true,
  reporter: [['json'], ['dot']],
  use: {
    baseURL: process.env.COMPONENTS_BASE_URL,
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 720 }, // adtest's default viewport
    launchOptions: { executablePath: process.env.COMPONENTS_CHROMIUM || '/usr/bin/chromium' },
  },
});
