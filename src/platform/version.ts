/** The app's own version; package.json says the same (a test holds them together). */
export const APP_VERSION = '0.9.0';
export const APP_NAME = 'brick-work';
