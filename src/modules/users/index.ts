/** The users module's public entry for other modules. */
