// The flows of ../flows/LIBRARY/FLOW.ad as Playwright Test specs, step by
// step with the same meaning:
//   role=R label=L      getByRole(R, { name: L, exact: true })
//   label=L             getByLabel(L, { exact: true })
//   text="T"            getByText(T, { exact: true })
//   wait SEL / is visible SEL            expect(...).toBeVisible()
//   wait absent SEL / is absent / hidden expect(...).toBeHidden()
//   wait text T         expect(getByText(T)).toBeVisible() (words on the page)
//   is text SEL T       toHaveText(T) as shown (innerText)
//   is exists "... value=V"              of a field: toHaveValue(V)
//   is selected SEL     a tab: aria-selected; a checkbox or switch: toBeChecked()
//   type T / keyboard enter               page.keyboard.type(T) / press('Enter')
//   gesture pan X Y DX DY MS              the mouse pressed at X Y, moved by DX DY, released
//   scroll down F --until SEL             the mouse wheel over the page's centre, F of the scroller's
//                                         height at a time, until SEL is in view
// Inside TinyMCE's iframe the same locators are asked of its frame.
// One test per flow, titled FLOW inside a describe block titled LIBRARY.
const { test, expect } = require('@playwright/test');

const role = (p, r, name) => p.getByRole(r, { name, exact: true });
const label = (p, l) => p.getByLabel(l, { exact: true });
const words = (p, t) => expect(p.getByText(t)).toBeVisible();

// pan is `gesture pan x y dx dy ms`: a press, a move in steps, a release.
async function pan(page, x, y, dx, dy) {
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx / 2, y + dy / 2, { steps: 5 });
  await page.mouse.move(x + dx, y + dy, { steps: 5 });
  await page.mouse.up();
}

const editor = (page) => page.frameLocator('#post_ifr');
const body = (page) => label(editor(page), 'Rich Text Area');
const published = (page) => label(page, 'Published HTML');

const flows = {
  'shoelace/1-tabs': async (page) => {
    await page.goto('/shoelace.html');
    await expect(role(page, 'tab', 'General')).toBeVisible({ timeout: 10000 });
    await expect(role(page, 'textbox', 'Display name')).toBeVisible();
    await role(page, 'tab', 'Billing').click();
    await expect(role(page, 'heading', 'Billing details')).toBeVisible();
    await expect(page.getByText('Plan: Team, billed yearly.', { exact: true })).toBeVisible();
    await expect(role(page, 'tab', 'Billing')).toHaveAttribute('aria-selected', 'true');
    await expect(role(page, 'textbox', 'Display name')).toBeHidden();
  },
  'shoelace/2-dialog-cancel': async (page) => {
    await page.goto('/shoelace.html');
    await expect(role(page, 'tab', 'Danger zone')).toBeVisible({ timeout: 10000 });
    await role(page, 'tab', 'Danger zone').click();
    await role(page, 'button', 'Delete account').click();
    await expect(role(page, 'dialog', 'Delete your account?')).toBeVisible();
    await expect(page.getByText('This removes every project of the account.', { exact: true })).toBeVisible();
    await role(page, 'button', 'Cancel').click();
    await words(page, 'Account kept');
    await expect(role(page, 'dialog', 'Delete your account?')).toBeHidden();
  },
  'shoelace/3-select': async (page) => {
    await page.goto('/shoelace.html');
    await expect(role(page, 'combobox', 'Country')).toBeVisible({ timeout: 10000 });
    await role(page, 'combobox', 'Country').click();
    await expect(role(page, 'option', 'France')).toBeVisible();
    await role(page, 'option', 'France').click();
    await words(page, 'Country: France');
  },
  'shoelace/4-checkbox-switch': async (page) => {
    await page.goto('/shoelace.html');
    const box = role(page, 'checkbox', 'Subscribe to the newsletter');
    await expect(box).toBeVisible({ timeout: 10000 });
    await page.getByText('Subscribe to the newsletter', { exact: true }).click();
    await words(page, 'Subscribed');
    await expect(box).toBeChecked();
    await page.getByText('Dark mode', { exact: true }).click();
    await words(page, 'Dark mode on');
    await expect(role(page, 'switch', 'Dark mode')).toBeChecked();
  },
  'shoelace/5-input-save': async (page) => {
    await page.goto('/shoelace.html');
    await expect(role(page, 'textbox', 'Display name')).toBeVisible({ timeout: 10000 });
    await role(page, 'textbox', 'Display name').fill('Ada Lovelace');
    await role(page, 'button', 'Save settings').click();
    await words(page, 'Saved: Ada Lovelace');
  },
  'shoelace/6-details': async (page) => {
    await page.goto('/shoelace.html');
    await expect(role(page, 'button', 'Advanced options')).toBeVisible({ timeout: 10000 });
    const text = page.getByText('API access is disabled for this account.', { exact: true });
    await expect(text).toBeHidden();
    await role(page, 'button', 'Advanced options').click();
    await expect(text).toBeVisible();
  },

  'tinymce/1-type-publish': async (page) => {
    await page.goto('/tinymce.html');
    await expect(body(page)).toBeVisible({ timeout: 10000 });
    await body(page).click();
    await page.keyboard.type('Hello from the editor');
    await role(page, 'button', 'Publish').click();
    await expect(published(page)).toHaveText('<p>Hello from the editor</p>', { useInnerText: true });
  },
  'tinymce/2-replace': async (page) => {
    await page.goto('/tinymce.html?text=Old%20text%20here');
    await expect(body(page)).toBeVisible({ timeout: 10000 });
    await expect(editor(page).getByText('Old text here')).toBeVisible();
    await body(page).fill('New text');
    await role(page, 'button', 'Publish').click();
    await expect(published(page)).toHaveText('<p>New text</p>', { useInnerText: true });
  },
  'tinymce/3-bold': async (page) => {
    await page.goto('/tinymce.html');
    await expect(body(page)).toBeVisible({ timeout: 10000 });
    await body(page).click();
    await role(page, 'button', 'Bold').click();
    await page.keyboard.type('Important');
    await role(page, 'button', 'Bold').click();
    await page.keyboard.type(' note');
    await role(page, 'button', 'Publish').click();
    await expect(published(page)).toHaveText('<p><strong>Important</strong> note</p>', { useInnerText: true });
  },
  'tinymce/4-link': async (page) => {
    await page.goto('/tinymce.html');
    await expect(body(page)).toBeVisible({ timeout: 10000 });
    await body(page).click();
    await page.keyboard.type('Read');
    await role(page, 'button', 'Insert/edit link').click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await role(page, 'combobox', 'URL').fill('/docs/start.html');
    await role(page, 'textbox', 'Text to display').fill('the guide');
    await role(page, 'button', 'Save').click();
    await expect(page.getByRole('dialog')).toBeHidden();
    await role(page, 'button', 'Publish').click();
    await expect(published(page)).toHaveText('<p>Read<a href="/docs/start.html">the guide</a></p>', { useInnerText: true });
  },
  'tinymce/5-list': async (page) => {
    await page.goto('/tinymce.html');
    await expect(body(page)).toBeVisible({ timeout: 10000 });
    await body(page).click();
    await role(page, 'button', 'Bullet list').click();
    await page.keyboard.type('eggs');
    await page.keyboard.press('Enter');
    await page.keyboard.type('milk');
    await role(page, 'button', 'Publish').click();
    await expect(published(page)).toHaveText('<ul> <li>eggs</li> <li>milk</li> </ul>', { useInnerText: true });
  },

  'grid/1-sort': async (page) => {
    await page.goto('/grid.html');
    await expect(role(page, 'gridcell', 'Athlete 1')).toBeVisible({ timeout: 10000 });
    await role(page, 'columnheader', 'Age').click();
    await expect(role(page, 'gridcell', 'Athlete 40')).toBeVisible();
    await expect(role(page, 'gridcell', 'Athlete 1')).toBeHidden();
    await role(page, 'columnheader', 'Age').click();
    await expect(role(page, 'gridcell', 'Athlete 39')).toBeVisible();
    await expect(role(page, 'gridcell', 'Athlete 40')).toBeHidden();
  },
  'grid/2-filter': async (page) => {
    await page.goto('/grid.html');
    await expect(role(page, 'gridcell', 'Athlete 1')).toBeVisible({ timeout: 10000 });
    await role(page, 'textbox', 'Country Filter Input').fill('Norway');
    await expect(role(page, 'gridcell', 'Athlete 1')).toBeHidden();
    await expect(role(page, 'gridcell', 'Athlete 5')).toBeVisible();
    await expect(role(page, 'gridcell', 'Athlete 10')).toBeVisible();
    await expect(role(page, 'gridcell', 'Kenya')).toBeHidden();
  },
  'grid/3-scroll-500': async (page) => {
    test.setTimeout(120000); // some fifty wheel turns, each waited out: 50 s on two busy cores
    await page.goto('/grid.html');
    await expect(role(page, 'gridcell', 'Athlete 1')).toBeVisible({ timeout: 10000 });
    const target = role(page, 'gridcell', 'Athlete 500');
    // As adtest's scroll: a wheel over the page's centre by 0.9 of the
    // height of what scrolls there (the grid's viewport), each scroll
    // waited out (the grid draws the rows of its new position), until the
    // row is in view.
    const scroller = page.locator('.ag-grid-viewport');
    const step = await scroller.evaluate((e) => 0.9 * e.clientHeight);
    const top = () => scroller.evaluate((e) => e.scrollTop);
    const inView = () => expect(target).toBeInViewport({ timeout: 1 }).then(() => true, () => false);
    await page.mouse.move(640, 360);
    for (let i = 0; i < 200 && !(await inView()); i++) {
      const before = await top();
      await page.mouse.wheel(0, step);
      await page.waitForFunction((b) => document.querySelector('.ag-grid-viewport').scrollTop > b, before);
    }
    await expect(target).toBeInViewport();
    await expect(role(page, 'gridcell', 'Athlete 1')).toBeHidden();
  },
  'grid/4-edit': async (page) => {
    await page.goto('/grid.html');
    await expect(role(page, 'gridcell', 'Athlete 1')).toBeVisible({ timeout: 10000 });
    await role(page, 'gridcell', 'Athlete 3').dblclick();
    await page.locator(':focus').fill('Ada Lovelace');
    await page.keyboard.press('Enter');
    await expect(role(page, 'gridcell', 'Ada Lovelace')).toBeVisible();
    await expect(role(page, 'gridcell', 'Athlete 3')).toBeHidden();
    await words(page, 'Renamed Athlete 3 to Ada Lovelace');
  },

  'flatpickr/1-date': async (page) => {
    await page.goto('/flatpickr.html');
    await expect(role(page, 'textbox', 'Departure')).toBeVisible({ timeout: 10000 });
    await role(page, 'textbox', 'Departure').click();
    await expect(label(page, 'March 14, 2027')).toBeVisible();
    await label(page, 'March 14, 2027').click();
    await words(page, 'Departure: 2027-03-14');
    await expect(role(page, 'textbox', 'Departure')).toHaveValue('2027-03-14');
  },
  'flatpickr/2-range': async (page) => {
    await page.goto('/flatpickr.html');
    await expect(role(page, 'textbox', 'Stay')).toBeVisible({ timeout: 10000 });
    await role(page, 'textbox', 'Stay').click();
    await expect(label(page, 'June 10, 2027')).toBeVisible();
    await label(page, 'June 10, 2027').click();
    await label(page, 'June 14, 2027').click();
    await words(page, 'Stay: 2027-06-10 to 2027-06-14');
    await expect(role(page, 'textbox', 'Stay')).toHaveValue('2027-06-10 to 2027-06-14');
  },
  'flatpickr/3-next-month': async (page) => {
    await page.goto('/flatpickr.html');
    await expect(role(page, 'textbox', 'Departure')).toBeVisible({ timeout: 10000 });
    await role(page, 'textbox', 'Departure').click();
    await expect(label(page, 'March 14, 2027')).toBeVisible();
    await role(page, 'button', 'Next month').click();
    await expect(label(page, 'April 20, 2027')).toBeVisible();
    await label(page, 'April 20, 2027').click();
    await words(page, 'Departure: 2027-04-20');
  },

  'tomselect/1-choose': async (page) => {
    await page.goto('/tomselect.html');
    await expect(role(page, 'combobox', 'Ship to')).toBeVisible({ timeout: 10000 });
    await role(page, 'combobox', 'Ship to').click();
    await page.keyboard.type('Fra');
    const list = role(page, 'listbox', 'Ship to'); // the open list, not the hidden native select's
    await expect(role(list, 'option', 'France')).toBeVisible();
    await role(list, 'option', 'France').click();
    await words(page, 'Shipping to France');
  },
  'tomselect/2-create-tag': async (page) => {
    await page.goto('/tomselect.html');
    await expect(role(page, 'combobox', 'Labels')).toBeVisible({ timeout: 10000 });
    await role(page, 'combobox', 'Labels').click();
    await page.keyboard.type('urgent');
    await words(page, 'Add urgent');
    await page.keyboard.press('Enter');
    await words(page, 'Labels: bug, docs, urgent');
    await expect(role(page, 'button', 'Remove urgent')).toBeVisible();
  },
  'tomselect/3-remove-tag': async (page) => {
    await page.goto('/tomselect.html');
    await expect(role(page, 'button', 'Remove docs')).toBeVisible({ timeout: 10000 });
    await role(page, 'button', 'Remove docs').click();
    await words(page, 'Labels: bug');
    await expect(role(page, 'button', 'Remove docs')).toBeHidden();
    await expect(role(page, 'button', 'Remove bug')).toBeVisible();
  },
  'tomselect/4-choose-tag': async (page) => {
    await page.goto('/tomselect.html');
    await expect(role(page, 'combobox', 'Labels')).toBeVisible({ timeout: 10000 });
    await role(page, 'combobox', 'Labels').click();
    const list = role(page, 'listbox', 'Labels'); // the open list, not the hidden native select's
    await expect(role(list, 'option', 'feature')).toBeVisible();
    await role(list, 'option', 'feature').click();
    await words(page, 'Labels: bug, docs, feature');
  },
  'tomselect/5-no-results': async (page) => {
    await page.goto('/tomselect.html');
    await expect(role(page, 'combobox', 'Ship to')).toBeVisible({ timeout: 10000 });
    await role(page, 'combobox', 'Ship to').click();
    await page.keyboard.type('Atlantis');
    await words(page, 'No results found');
  },

  'sortable/1-reorder': async (page) => {
    await page.goto('/sortable.html');
    await expect(role(page, 'heading', 'To do (3)')).toBeVisible({ timeout: 10000 });
    await pan(page, 100, 192, 0, -96);
    await words(page, 'To do: Fix the login bug, Plan the sprint, Write the tests');
  },
  'sortable/2-move': async (page) => {
    await page.goto('/sortable.html');
    await expect(role(page, 'heading', 'To do (3)')).toBeVisible({ timeout: 10000 });
    await pan(page, 100, 150, 528, 40);
    await expect(role(page, 'heading', 'Done (2)')).toBeVisible();
    await expect(role(page, 'heading', 'To do (2)')).toBeVisible();
    await words(page, 'Moved Write the tests to Done');
  },
  'sortable/3-move-fallback': async (page) => {
    await page.goto('/sortable.html');
    await expect(role(page, 'heading', 'Ideas (2)')).toBeVisible({ timeout: 10000 });
    await pan(page, 100, 450, 264, 40);
    await expect(role(page, 'heading', 'Next (2)')).toBeVisible();
    await expect(role(page, 'heading', 'Ideas (1)')).toBeVisible();
    await words(page, 'Moved Offline mode to Next');
  },
};

const only = process.env.COMPONENTS_FLOWS ? process.env.COMPONENTS_FLOWS.split(',') : null;
const byLibrary = {};
for (const key of Object.keys(flows)) {
  if (only && !only.includes(key)) continue;
  const [lib, flow] = key.split('/');
  (byLibrary[lib] = byLibrary[lib] || []).push(flow);
}
for (const [lib, names] of Object.entries(byLibrary)) {
  test.describe(lib, () => {
    for (const name of names) {
      test(name, async ({ page }) => flows[lib + '/' + name](page));
    }
  });
}
