// The nine flows of ../flows/*.ad as Playwright Test specs, step by step
// with the same meaning: a selector `id=X` is `#X`, `text="T"` is
// getByText(T, exact), a `wait` is an expect that retries for its bound,
// `is visible` / `wait absent` are toBeVisible / toBeHidden, `is text` on
// an element is toHaveText reading innerText (what the screen shows, as
// `is text` reads it: toHaveText's default, textContent, includes text a
// page hides with display: none), on the focused field toHaveValue (adtest
// compares trimmed, whitespace-collapsed text, and so does the pattern).
// One test per framework x flow, titled FRAMEWORK / FLOW.
const { test, expect } = require('@playwright/test');

const suite = require(process.env.TODOMVC_FRAMEWORKS);

const text = (page, t) => page.getByText(t, { exact: true });

// shows is `is text "id=todo-count" T`: the counter's text as shown.
const shows = (page, t) => expect(page.locator('#todo-count')).toHaveText(t, { useInnerText: true });

async function open(page, fw) {
  await page.goto(fw.entry);
  await expect(page.locator('#new-todo')).toBeVisible({ timeout: 10000 });
}

async function add(page, t) {
  await page.locator('#new-todo').fill(t);
  await page.keyboard.press('Enter');
}

const flows = {
  '1-add': async (page, fw) => {
    await open(page, fw);
    await add(page, 'buy milk');
    await expect(text(page, 'buy milk')).toBeVisible();
    await add(page, 'walk the dog');
    await expect(text(page, 'walk the dog')).toBeVisible();
    await expect(text(page, 'buy milk')).toBeVisible();
  },
  '2-counter': async (page, fw) => {
    await open(page, fw);
    await add(page, 'buy milk');
    await expect(text(page, 'buy milk')).toBeVisible();
    await shows(page, '1 item left');
    await add(page, 'walk the dog');
    await expect(text(page, 'walk the dog')).toBeVisible();
    await shows(page, '2 items left');
    await page.locator('#toggle-all').click();
    await shows(page, '0 items left');
  },
  '3-trim': async (page, fw) => {
    await open(page, fw);
    await add(page, '   ');
    await add(page, '   walk the dog   ');
    await expect(text(page, 'walk the dog')).toBeVisible();
    await shows(page, '1 item left');
    await text(page, 'walk the dog').dblclick();
    await expect(page.locator(':focus')).toHaveValue(/^\s*walk the dog\s*$/);
  },
  '4-mark-all': async (page, fw) => {
    await open(page, fw);
    await add(page, 'buy milk');
    await add(page, 'walk the dog');
    await expect(text(page, 'walk the dog')).toBeVisible();
    await page.locator('#toggle-all').click();
    await shows(page, '0 items left');
    await expect(page.locator('#toggle-all')).toBeChecked();
    await page.locator('#toggle-all').click();
    await shows(page, '2 items left');
  },
  '5-filters': async (page, fw) => {
    await open(page, fw);
    await add(page, 'buy milk');
    await expect(text(page, 'buy milk')).toBeVisible();
    await page.locator('#toggle-all').click();
    await add(page, 'walk the dog');
    await expect(text(page, 'walk the dog')).toBeVisible();
    await page.getByRole('link', { name: 'Active', exact: true }).click();
    await expect(text(page, 'buy milk')).toBeHidden();
    await expect(text(page, 'walk the dog')).toBeVisible();
    await page.getByRole('link', { name: 'Completed', exact: true }).click();
    await expect(text(page, 'walk the dog')).toBeHidden();
    await expect(text(page, 'buy milk')).toBeVisible();
    await page.goBack();
    await expect(text(page, 'buy milk')).toBeHidden();
    await expect(text(page, 'walk the dog')).toBeVisible();
    await page.getByRole('link', { name: 'All', exact: true }).click();
    await expect(text(page, 'buy milk')).toBeVisible();
    await expect(text(page, 'walk the dog')).toBeVisible();
  },
  '6-clear-completed': async (page, fw) => {
    await open(page, fw);
    await add(page, 'buy milk');
    await add(page, 'walk the dog');
    await expect(text(page, 'walk the dog')).toBeVisible();
    await page.locator('#toggle-all').click();
    await add(page, 'feed the cat');
    await expect(text(page, 'feed the cat')).toBeVisible();
    await page.locator('#clear-completed').click();
    await expect(text(page, 'buy milk')).toBeHidden();
    await expect(text(page, 'walk the dog')).toBeHidden();
    await expect(text(page, 'feed the cat')).toBeVisible();
    await shows(page, '1 item left');
  },
  '7-edit': async (page, fw) => {
    await open(page, fw);
    await add(page, 'buy milk');
    await add(page, 'walk the dog');
    await expect(text(page, 'buy milk')).toBeVisible();
    await text(page, 'buy milk').dblclick();
    await page.locator(':focus').fill('buy oat milk');
    await page.keyboard.press('Enter');
    await expect(text(page, 'buy oat milk')).toBeVisible();
    await expect(text(page, 'buy milk')).toBeHidden();
    await expect(text(page, 'walk the dog')).toBeVisible();
    await shows(page, '2 items left');
  },
  '8-delete': async (page, fw) => {
    await open(page, fw);
    await add(page, 'buy milk');
    await add(page, 'walk the dog');
    await expect(text(page, 'walk the dog')).toBeVisible();
    await text(page, 'walk the dog').hover();
    await page.getByRole('button').click(); // the one visible button
    await expect(text(page, 'walk the dog')).toBeHidden();
    await expect(text(page, 'buy milk')).toBeVisible();
    await shows(page, '1 item left');
  },
  '9-persist': async (page, fw) => {
    await open(page, fw);
    await add(page, 'buy milk');
    await expect(text(page, 'buy milk')).toBeVisible();
    await page.locator('#toggle-all').click();
    await add(page, 'walk the dog');
    await expect(text(page, 'walk the dog')).toBeVisible();
    await page.waitForTimeout(1000);
    await page.goto(fw.entry);
    await expect(text(page, 'walk the dog')).toBeVisible({ timeout: 10000 });
    await expect(text(page, 'buy milk')).toBeVisible();
    await shows(page, '1 item left');
  },
};

for (const name of suite.flows) {
  if (!flows[name]) throw new Error(`flow ${name} of ../flows has no Playwright spec here`);
}

for (const fw of suite.frameworks) {
  test.describe(fw.name, () => {
    for (const name of suite.flows) {
      test(name, async ({ page }) => flows[name](page, fw));
    }
  });
}
