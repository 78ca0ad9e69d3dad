/** A job's contact list: its rows as the campaign sees them, its contacts as the report lists them, the store's listing of its files, and what a whole read of it read. */
export { contactListOf, contactsByPhone, listedOf, loadList, type Listed } from './contacts.js';
export { bytesPerLine, filesOfReads, growthOf, readsFor } from './reads.js';
export { countPending, listedContacts, listFiles, listSource } from './store-listing.js';
