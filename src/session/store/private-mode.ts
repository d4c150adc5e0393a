/**
@module The modes of what cardterm writes for the person: session folders and logs, their locks, the
prompt history, ACP frame traces and remembered consents. Other users of the machine must not read
them (a log holds what tools printed, which can hold secrets the redaction does not know), so each
is created the person's alone; the umask can only narrow this further. What exists keeps its mode.
*/

/** A folder cardterm creates. */
export const PRIVATE_FOLDER_MODE = 0o700;

/** A file cardterm creates. */
export const PRIVATE_FILE_MODE = 0o600;
