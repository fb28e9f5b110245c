#!/usr/bin/env bash
# Fails when a link or image of the documentation points at nothing: every relative target of
# README.md and docs/**/*.md must name a file or folder of the tree (relative to the page that
# links it), and a `#anchor` (on its own, or after a markdown file) must match a heading of that
# page as GitHub writes heading anchors (lower case; punctuation dropped; spaces become hyphens;
# a repeated heading gets -1, -2 ...). Links inside code (fenced blocks, `spans`) are not links.
# Web links (https:, mailto: ...) are not checked. The ctest entry format.DocLinks runs it.
# Usage: scripts/check_doc_links.sh [FILE.md ...]   (default: README.md and docs/**/*.md)
set -uo pipefail
cd "$(dirname "$0")/.."

if [ $# -gt 0 ]; then
    pages=("$@")
else
    mapfile -t pages < <({ echo README.md; find docs -name '*.md'; } | sort)
fi

# The page's text outside code: fenced blocks dropped, inline code spans blanked.
prose() {
    awk '
        /^[ \t]*(```|~~~)/ { fenced = !fenced; next }
        fenced { next }
        { gsub(/`[^`]*`/, "``"); print }
    ' "$1"
}

# The anchors of a page's headings, one a line, as GitHub makes them.
anchors() {
    awk '
        /^[ \t]*(```|~~~)/ { fenced = !fenced; next }
        fenced || !/^#+[ \t]/ { next }
        {
            text = $0
            sub(/^#+[ \t]+/, "", text)
            sub(/[ \t]+#+[ \t]*$/, "", text)
            while (match(text, /\[[^]]*\]\([^)]*\)/)) {
                inner = substr(text, RSTART + 1)
                sub(/\]\(.*/, "", inner)
                text = substr(text, 1, RSTART - 1) inner substr(text, RSTART + RLENGTH)
            }
            text = tolower(text)
            gsub(/[^a-z0-9 _-]/, "", text)
            gsub(/ /, "-", text)
            if (text in seen) { print text "-" (++seen[text]) } else { seen[text] = 0; print text }
        }
    ' "$1"
}

# Each link target of a page: ](target) and ](target "title"), and [label]: target.
targets() {
    prose "$1" | grep -oE '\]\([^)[:space:]]+|^\[[^]]+\]:[[:space:]]+[^[:space:]]+' |
        sed -E 's/^\]\(//; s/^\[[^]]+\]:[[:space:]]+//; s/^<//; s/>$//'
}

broken=0
links=0
for page in "${pages[@]}"; do
    dir=$(dirname "$page")
    while IFS= read -r target; do
        [ -z "$target" ] && continue
        case "$target" in
            [a-zA-Z]*:*) continue ;;  # https:, mailto: ...
        esac
        links=$((links + 1))
        path=${target%%#*}
        anchor=""
        [[ $target == *"#"* ]] && anchor=${target#*#}
        path=${path//%20/ }
        if [ -z "$path" ]; then
            file=$page
        else
            file=$path
            [ "$dir" != . ] && file=$dir/$path
            if [ ! -e "$file" ]; then
                echo "$page: link to '$target': $file does not exist"
                broken=$((broken + 1))
                continue
            fi
        fi
        if [ -n "$anchor" ]; then
            if [[ $file != *.md ]] || [ -d "$file" ]; then
                echo "$page: link to '$target': an anchor into $file, which is not a markdown page"
                broken=$((broken + 1))
            elif ! anchors "$file" | grep -qxF -- "$anchor"; then
                echo "$page: link to '$target': $file has no heading with the anchor '#$anchor'"
                broken=$((broken + 1))
            fi
        fi
    done < <(targets "$page")
done

if [ "$broken" -gt 0 ]; then
    echo "tclens: $broken of $links links in ${#pages[@]} pages point at nothing" >&2
    exit 1
fi
echo "tclens: all $links links in ${#pages[@]} pages point at existing files and headings"
