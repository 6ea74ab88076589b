"""Configuration from the environment (and a ``.env`` file), through pydantic-settings."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Everything the process needs to know; no ids are hard-coded anywhere else."""

    model_config = SettingsConfigDict(
        env_prefix="OPPORTUNIST_",
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        populate_by_name=True,
    )

    token: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("token", "OPPORTUNIST_TOKEN", "DISCORD_TOKEN")
    )
    db_path: Path = Field(
        default=Path("opportunist.sqlite3"), validation_alias=AliasChoices("db_path", "OPPORTUNIST_DB")
    )
    dev_guild: int | None = Field(
        default=None, validation_alias=AliasChoices("dev_guild", "OPPORTUNIST_DEV_GUILD")
    )
    log_level: str = Field(
        default="INFO", validation_alias=AliasChoices("log_level", "OPPORTUNIST_LOG_LEVEL")
    )
    # auto: sync the command tree only when its definition changed since the last sync (hash in the
    # database). always: every start (offline mode: a fresh simulated Discord knows no commands).
    sync_commands: Literal["auto", "always", "never"] = Field(
        default="auto", validation_alias=AliasChoices("sync_commands", "OPPORTUNIST_SYNC_COMMANDS")
    )
    # Unset: discord.py asks Discord for the recommended shard count. Tests and offline mode use 1.
    shard_count: int | None = Field(
        default=None, ge=1, validation_alias=AliasChoices("shard_count", "OPPORTUNIST_SHARD_COUNT")
    )

    @field_validator("token", mode="before")
    @classmethod
    def _blank_token_is_none(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("log_level")
    @classmethod
    def _level(cls, value: str) -> str:
        level = value.strip().upper()
        if level not in ("CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG"):
            raise ValueError("OPPORTUNIST_LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL")
        return level
