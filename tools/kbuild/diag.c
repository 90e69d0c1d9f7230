/* kbuild: compiler messages as structured diagnostics. */
#include "kbuild.h"


/*
 * nvcc's front end says "file(12): error: message", gcc and clang say
 * "file:12:3: error: message"; both become {file, line, severity,
 * message}.
 */
json_t *
parse_diagnostics(const char *log)
{
	json_t *arr = json_array();
	const char *p = log, *nl;
	char line[2048], file[512], sev[32];
	int ln, col;

	while (p != NULL && *p != '\0' && json_array_size(arr) < DIAG_MAX) {
		size_t len;
		char *m = NULL;
		nl = strchr(p, '\n');
		len = nl != NULL ? (size_t)(nl - p) : strlen(p);
		if (len >= sizeof(line))
			len = sizeof(line) - 1;
		memcpy(line, p, len);
		line[len] = '\0';
		p = nl != NULL ? nl + 1 : NULL;
		sev[0] = '\0';
		if (sscanf(line, "%511[^(:](%d): %31[a-z ]:", file, &ln,
		    sev) == 3 && (m = strstr(line, "): ")) != NULL) {
			m = strchr(m + 3, ':');
		} else if (sscanf(line, "%511[^:]:%d:%d: %31[a-z ]:", file, &ln,
		    &col, sev) == 4) {
			m = strstr(line, sev);
			m = m != NULL ? strchr(m, ':') : NULL;
		} else if (strncmp(line, "error: ", 7) == 0) {
			/* a back end's own, with no file: NVVM's "error:
			 * Broken module found, compilation aborted!" */
			snprintf(file, sizeof(file), "%s", "");
			snprintf(sev, sizeof(sev), "error");
			ln = 0;
			m = line + 5;
		} else if (sscanf(line, "%511[^: ]: %31[a-z ]:", file, sev) == 2) {
			/* the driver itself: "clang: error: ..." */
			ln = 0;
			m = strstr(line, sev);
			m = m != NULL ? strchr(m, ':') : NULL;
		} else
			continue;
		/* nvcc 13: "warning #550-D: ..." leaves "warning " */
		while (sev[0] != '\0' && sev[strlen(sev) - 1] == ' ')
			sev[strlen(sev) - 1] = '\0';
		if (m == NULL || (strncmp(sev, "error", 5) != 0 &&
		    strncmp(sev, "warning", 7) != 0 &&
		    strncmp(sev, "fatal error", 11) != 0 &&
		    strcmp(sev, "note") != 0))
			continue;
		{
			json_t *d = json_object();
			m++;
			while (*m == ' ')
				m++;
			json_object_set_new(d, "file", json_string(file));
			json_object_set_new(d, "line", json_integer(ln));
			json_object_set_new(d, "severity", json_string(
			    strncmp(sev, "fatal", 5) == 0 ? "error" : sev));
			json_object_set_new(d, "message",
			    k_string_lossy(m, strlen(m)));
			json_array_append_new(arr, d);
		}
	}
	return arr;
}
