// The names the page's way in to a friends' table (./friends.js) and the table itself
// (./friend/*) both use. Constants only: importing this module runs nothing.

/** What an invite link's fragment begins with: #join=<offer code>&game=<game> (./friend/signaling.js). */
export const JOIN = "#join=";

/** Where a host's tab keeps its friends' table (Host.save()), to come back to after a reload (./friend/core.js). */
export const HOST_KEY = "pishe.friend.host";
