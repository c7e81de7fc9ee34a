"""Whole chats at a time: a chat's sessions written out as a file (backup, /export), read
back a step at a time, checked whole before anything is written, imported, restored into
empty chats; and forgetting a person or a whole chat."""
