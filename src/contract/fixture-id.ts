/**
 * The fixture app's id (contract: `FIXTURE_APP_ID`). Defined in this one file so that a
 * release build can replace it and prove that nothing it ships mentions the fixture.
 */
export const FIXTURE_APP_ID = 'app.orthiclabs.demo-fixture';
